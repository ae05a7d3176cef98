package resolve

import (
	"go/ast"
	"strings"
	"testing"
)

// TestResolveBoundedWork: functions that return calls of each other from
// several return statements are followed within maxSteps, and what was
// found on the way is kept. Without the bound this resolution visits five
// to the sixteenth power values (ardanlabs/service never finished).
func TestResolveBoundedWork(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\ntype H func(int)\n\nfunc leaf(int) {}\n\n")
	for _, name := range []string{"a", "b", "c"} {
		b.WriteString("func " + name + "(x int) H {\n\tswitch x {\n")
		for i, next := range []string{"a", "b", "c", "a", "b"} {
			b.WriteString("\tcase " + string(rune('0'+i)) + ":\n\t\treturn " + next + "(x - 1)\n")
		}
		b.WriteString("\t}\n\treturn leaf\n}\n\n")
	}
	b.WriteString("var Registered = a(9)\n")
	h, f := handlersOf(t, b.String())
	var arg ast.Expr
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok && vs.Names[0].Name == "Registered" {
			arg = vs.Values[0]
		}
		return arg == nil
	})
	ts, _ := h.Resolve(arg)
	found := false
	for _, tg := range ts {
		if tg.Func != nil && tg.Func.Name() == "leaf" {
			found = true
		}
	}
	if !found {
		t.Errorf("Resolve(a(9)) = %d targets, none of them leaf", len(ts))
	}
	if h.steps >= 0 {
		t.Errorf("steps left %d: the case no longer reaches the bound, so it tests nothing", h.steps)
	}
}
