package resolve

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// TestWraps: a literal that calls a handler given to a function around it
// (directly, or through ServeHTTP) wraps it; one that calls a logger it
// was given, or a helper of its own, does not.
func TestWraps(t *testing.T) {
	const src = `package p

type W interface{ Write([]byte) (int, error) }
type R struct{}
type D struct{}
type H func(W, *R)
type HF func(W, *R, *D) (int, error)
type Handler interface{ ServeHTTP(W, *R) }

func withUser(fn HF) HF { return func(w W, r *R, d *D) (int, error) { return fn(w, r, d) } }
func handle(fn HF) H    { return func(w W, r *R) { _, _ = fn(w, r, nil) } }
func mw(next Handler) H { return func(w W, r *R) { next.ServeHTTP(w, r) } }
func logged(log func(string)) H { return func(w W, r *R) { log("x") } }
func plain() H { return func(w W, r *R) { helper := func(w W, r *R) {}; helper(w, r) } }
`
	h, f := handlersOf(t, src)
	want := map[string]bool{"withUser": true, "handle": true, "mw": true, "logged": false, "plain": false}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		ret := fd.Body.List[0].(*ast.ReturnStmt)
		lit := ret.Results[0].(*ast.FuncLit)
		if got := h.Wraps(lit); got != want[fd.Name.Name] {
			t.Errorf("%s's literal: Wraps = %v, want %v", fd.Name.Name, got, want[fd.Name.Name])
		}
	}
}

// handlersOf type-checks src, one file of package p, and indexes it.
func handlersOf(t *testing.T, src string) (*Handlers, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return New(info, pkg, []*ast.File{f}), f
}
