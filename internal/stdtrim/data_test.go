package stdtrim

import (
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
// length, keyed or not), and that a table with a name, a call or a string
// in it is left whole.
func TestTrimDataKeepsTypes(t *testing.T) {
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

func f() []int { return []int{` + nums + `} }
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
			elts[vs.Names[0].Name] = len(vs.Values[0].(*ast.CompositeLit).Elts)
		}
	}
	for name, want := range map[string]int{"open": 0, "keyed": 0, "slice": 0, "nested": 0, "words": 0, "m": 1, "named": minData + 1, "called": minData + 1, "strs": minData, "short": 2} {
		if elts[name] != want {
			t.Errorf("%s: %d elements after the trim, want %d", name, elts[name], want)
		}
	}
	if n := len(f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body.List[0].(*ast.ReturnStmt).Results[0].(*ast.CompositeLit).Elts); n != 0 {
		t.Errorf("a table in a body: %d elements after the trim, want 0", n)
	}
}
