// Package standin type-checks a unit test's Go source against stand-ins:
// short sources for the packages it imports, checked at their import
// paths on demand. The analyzer's units recognise a type by its import
// path and name, so a stand-in of the right name at the right path is
// all a test needs, without loading the real module.
package standin

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// Check type-checks src as the package at path, in fset, importing from
// srcs (import path → source); it fails the test on any error.
func Check(t testing.TB, fset *token.FileSet, path, src string, srcs map[string]string) (*ast.File, *types.Info) {
	t.Helper()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Types: map[ast.Expr]types.TypeAndValue{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	im := &importer{fset: fset, srcs: srcs, done: map[string]*types.Package{}}
	if _, err := (&types.Config{Importer: im}).Check(path, fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return f, info
}

// importer checks each stand-in once, the first time it is imported.
type importer struct {
	fset *token.FileSet
	srcs map[string]string
	done map[string]*types.Package
}

func (im *importer) Import(path string) (*types.Package, error) {
	if p := im.done[path]; p != nil {
		return p, nil
	}
	src, ok := im.srcs[path]
	if !ok {
		return nil, fmt.Errorf("no stand-in for %s", path)
	}
	f, err := parser.ParseFile(im.fset, path+".go", src, 0)
	if err != nil {
		return nil, err
	}
	p, err := (&types.Config{Importer: im}).Check(path, im.fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, err
	}
	im.done[path] = p
	return p, nil
}
