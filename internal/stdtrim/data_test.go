package stdtrim

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestTrimDataKeepsTypes checks that emptying number tables leaves every
// package-level declaration's type as it was (an array of [...] keeps its
// length, keyed or not, its keys literals or arithmetic of them), that a
// package-level table of strings, conversions to basic types and the
// package's constants in basic arithmetic is emptied, and that a table
// with a bare name, a call, another package, or a constant that could
// become an interface with methods is left whole, as is a body's table
// of anything but numbers.
func TestTrimDataKeepsTypes(t *testing.T) {
	keyed := func(elt func(i int) string) string {
		var b strings.Builder
		for i := range minData {
			b.WriteString(elt(i) + ", ")
		}
		return b.String()
	}
	nums := strings.Repeat("1, ", minData)
	src := `package p

import "strconv"

const k = 3

type word struct{ a, b, c uint16 }

var open = [...]uint16{` + nums + `}
var keyed = [...]uint16{` + nums + `40: 2, 7, 'a': 1}
var slice = []byte{` + nums + `}
var nested = [...][]int{` + strings.Repeat("{1, -2}, ", minData) + `}
var words = [...]word{` + strings.Repeat("word{1, 2, 3}, ", minData) + `}
var m = map[int]float64{` + strings.Repeat("1: 2.5, ", 1) + `}
var named = []int{` + nums + `k}
var called = []int{` + nums + `len(strconv.Itoa(1))}
var strs = []string{` + strings.Repeat(`"x", `, minData) + `}
var short = []int{1, 2}
var conv = [...]uint16{` + strings.Repeat("uint16(19970), ", minData) + `}
var arith = [...]uint16{` + keyed(func(i int) string { return fmt.Sprintf("%d - 3: k<<14 | 0x0F<<7 | %d", i+3, i) }) + `}
var dict = map[string]string{` + keyed(func(i int) string { return fmt.Sprintf("\"k%d\": \"v\" + \"w\"", i) }) + `}
var rows = []row{` + strings.Repeat(`{name: "x", n: 1, ok: true}, `, minData) + `}
var days = []stringer{` + strings.Repeat("mon + 1, ", minData) + `}
var quals = []string{` + strings.Repeat("strconv.Quote(\"x\"), ", minData) + `}
var closure = func() []int {
	x := 1
	return []int{` + strings.Repeat("x + 1, ", minData) + `}
}

type row struct {
	name string
	n    int
	ok   bool
}

type day int

func (day) String() string { return "" }

const mon day = 1

type stringer interface{ String() string }

func f() []int { return []int{` + nums + `} }

func g() []string {
	x := "y"
	return []string{` + strings.Repeat("x, ", minData) + `}
}
`
	check := func(trim bool) (*types.Package, *ast.File) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		if trim {
			trimData(f)
		}
		pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatalf("trim=%v: %v", trim, err)
		}
		return pkg, f
	}
	full, _ := check(false)
	trimmed, f := check(true)
	for _, name := range full.Scope().Names() {
		a, b := full.Scope().Lookup(name).Type(), trimmed.Scope().Lookup(name).Type()
		if a.String() != b.String() {
			t.Errorf("%s: %s after the trim, %s before", name, b, a)
		}
	}
	elts := map[string]int{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			vs := g.Specs[0].(*ast.ValueSpec)
			switch v := vs.Values[0].(type) {
			case *ast.CompositeLit:
				elts[vs.Names[0].Name] = len(v.Elts)
			case *ast.FuncLit: // the literal it returns
				elts[vs.Names[0].Name] = len(v.Body.List[1].(*ast.ReturnStmt).Results[0].(*ast.CompositeLit).Elts)
			}
		}
	}
	for name, want := range map[string]int{"open": 0, "keyed": 0, "slice": 0, "nested": 0, "words": 0, "m": 1, "named": minData + 1, "called": minData + 1, "strs": 0, "short": 2,
		"conv": 0, "arith": 0, "dict": 0, "rows": 0, "days": minData, "quals": minData, "closure": minData} {
		if elts[name] != want {
			t.Errorf("%s: %d elements after the trim, want %d", name, elts[name], want)
		}
	}
	if n := len(f.Decls[len(f.Decls)-2].(*ast.FuncDecl).Body.List[0].(*ast.ReturnStmt).Results[0].(*ast.CompositeLit).Elts); n != 0 {
		t.Errorf("a table in a body: %d elements after the trim, want 0", n)
	}
	if n := len(f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body.List[1].(*ast.ReturnStmt).Results[0].(*ast.CompositeLit).Elts); n != minData {
		t.Errorf("a body's table of a local: %d elements after the trim, want %d (the local would be unused)", n, minData)
	}
}
