package resolve

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestAdapters: a function returning a request handler that calls its
// func parameter is an adapter of that parameter (also when the handler
// is kept in a local, or converted to http.HandlerFunc first); one whose
// handler calls a logger it was given, or that returns no handler, is
// not. A named func type is an adapter type when its ServeHTTP calls its
// value (RootMethod), or when a request root calls a value of it, through
// the package's own functions too; a type only a non-root calls is not.
func TestAdapters(t *testing.T) {
	t.Parallel()
	f, info := check(t, "example.com/app", `package app

import "net/http"

type H = func(http.ResponseWriter, *http.Request)

func adapt(f func(int) error) http.HandlerFunc {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _ = f(1) })
}
func kept(prefix string, f func()) H {
	h := func(w http.ResponseWriter, r *http.Request) { f() }
	return h
}
func logged(log func(string)) H {
	return func(w http.ResponseWriter, r *http.Request) {}
}
func notHandler(f func()) func() { return func() { f() } }

type appHandler func(http.ResponseWriter, *http.Request) error

func (fn appHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { _ = fn(w, r) }

type Handler func(*Ctx)
type Ctx struct{ chain []Handler }

func (c *Ctx) next() { c.chain[0](c) }
func root(w http.ResponseWriter, r *http.Request) { (&Ctx{}).next() }

type Hook func()

func notRoot(h Hook) { h() }
`, nil)
	var pkg *types.Package
	facts := map[types.Object][]int{}
	var decls []Decl
	fns := map[string]*types.Func{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		fn := info.Defs[fd.Name].(*types.Func)
		pkg = fn.Pkg()
		fns[fd.Name.Name] = fn
		decls = append(decls, Decl{Fd: fd, Fn: fn, Params: FuncParams(fn.Type().(*types.Signature))})
	}
	pass := &analysis.Pass{Pkg: pkg, TypesInfo: info, Files: []*ast.File{f},
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
			if af, ok := fact.(*AdapterFact); ok {
				facts[obj] = af.Params
			}
		},
		ImportObjectFact: func(types.Object, analysis.Fact) bool { return false }}
	sync := NewSync(pass, nil)
	sync.Scan(decls)
	a := NewAdapters(pass, New(info, pkg, []*ast.File{f}), sync)
	isRoot := func(d Decl) bool { return SignatureRoot(d.Fn.Type().(*types.Signature)) != NotRoot }
	for _, d := range decls {
		if recv := d.Fn.Type().(*types.Signature).Recv(); recv != nil && d.Fn.Name() == "ServeHTTP" {
			a.RootMethod(d.Fd, recv)
		}
	}
	a.Scan(decls, isRoot)
	for name, want := range map[string][]int{"adapt": {0}, "kept": {1}, "logged": nil, "notHandler": nil, "root": nil} {
		if got := a.Params(fns[name]); !slices.Equal(got, want) {
			t.Errorf("Params(%s) = %v, want %v", name, got, want)
		}
		if got := facts[fns[name]]; !slices.Equal(got, want) {
			t.Errorf("%s's AdapterFact = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{"appHandler": true, "Handler": true, "Hook": false, "Ctx": false} {
		obj := pkg.Scope().Lookup(name)
		if got := a.IsType(obj.Type()); got != want {
			t.Errorf("IsType(%s) = %v, want %v", name, got, want)
		}
		if _, exported := facts[obj]; exported != want {
			t.Errorf("%s: AdapterFact exported = %v, want %v", name, exported, want)
		}
	}
	if a.Params(nil) != nil {
		t.Error("Params(nil) != nil")
	}
}
