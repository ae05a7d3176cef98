package directive

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		text   string
		ok     bool
		ids    []string
		reason string
	}{
		{"//syncio:ignore SIO001,SIO005 -- warmed at start-up", true, []string{"SIO001", "SIO005"}, "warmed at start-up"},
		{"//syncio:ignore SIO002 SIO003", true, []string{"SIO002", "SIO003"}, ""},
		{"//syncio:ignore SIO001 -- why // a note", true, []string{"SIO001"}, "why"},
		{"//syncio:ignore", true, nil, ""},
		{"//syncio:ignored SIO001 -- not this one", false, nil, ""},
		{"// syncio:ignore SIO001 -- a spaced comment is prose", false, nil, ""},
	} {
		ig, ok := Parse(&ast.Comment{Text: c.text})
		if ok != c.ok {
			t.Errorf("Parse(%q): ok = %v, want %v", c.text, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if !slices.Equal(ig.IDs, c.ids) || ig.Reason != c.reason {
			t.Errorf("Parse(%q) = %q, %q; want %q, %q", c.text, ig.IDs, ig.Reason, c.ids, c.reason)
		}
	}
}

// TestIndex: an ignore hides its rules on its own line and the next, and
// a doc comment's ignores belong to the function.
func TestIndex(t *testing.T) {
	const src = `package p

//syncio:handler
//syncio:ignore SIO005 -- polled once
func f() {
	g() //syncio:ignore SIO001 -- same line
	//syncio:ignore SIO002 -- line above
	g()
	g()
}

func g() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	d := New(fset, []*ast.File{f})
	fd := f.Decls[0].(*ast.FuncDecl)
	if !d.Handler(fd.Doc) {
		t.Error("Handler: the //syncio:handler doc comment is not seen")
	}
	igs := d.FuncIgnores(fd.Doc)
	if ig := FuncIgnore(igs, "SIO005"); ig == nil || ig.Used {
		t.Errorf("FuncIgnore(SIO005) = %+v: want the doc comment's ignore, not yet used", ig)
	}
	if len(igs) != 1 || !FuncSuppressed(igs, "SIO005") || !igs[0].Used {
		t.Errorf("FuncIgnores = %v: want the SIO005 ignore, used once it suppresses", igs)
	}
	calls := map[int]token.Pos{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			calls[fset.Position(c.Pos()).Line] = c.Pos()
		}
		return true
	})
	// At finds without marking: the join decides later whether an
	// ignore carried to an interface call hid anything.
	if ig := d.At(calls[8], "SIO002"); ig == nil || ig.Used || d.At(calls[9], "SIO002") != nil {
		t.Errorf("At(line 8, SIO002) = %+v: want the line-7 ignore, not yet used; none at line 9", ig)
	}
	for _, c := range []struct {
		line int
		rule string
		want bool
	}{
		{6, "SIO001", true}, {6, "SIO002", false}, {8, "SIO002", true}, {9, "SIO002", false},
	} {
		if got := d.Suppressed(calls[c.line], c.rule); got != c.want {
			t.Errorf("Suppressed(line %d, %s) = %v, want %v", c.line, c.rule, got, c.want)
		}
	}
	if len(d.All) != 3 {
		t.Errorf("All holds %d ignores, want 3", len(d.All))
	}
}
