package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestStored: a function that stores its parameter into a slot (a
// field through a composite literal, a package variable, a slice field
// through a variadic append) stores it, and so does one that passes its
// parameter on to such a function, two calls up (the fixpoint); each is
// exported as a StoresFact. The package's stores are its arguments to
// those parameters (each element of a variadic one), its own
// assignments, and its arguments to another package's function by that
// function's fact; a parameter stored by its function is one (IsParam).
func TestStored(t *testing.T) {
	t.Parallel()
	extra := map[string]string{"example.com/router": `package router; type Mux struct{ h func() }; func Bind(f func()) {}`}
	fset := token.NewFileSet()
	f, info := checkIn(t, fset, "example.com/app", `package app

import "example.com/router"

type Route struct{ Action func() }

type Router struct {
	routes []Route
	hooks  []func()
}

var Hook func()

func (r *Router) Group(prefix string, h func()) { r.GET(prefix, h) }
func (r *Router) GET(path string, h func())     { r.add(h) }
func (r *Router) add(a func())                  { r.routes = append(r.routes, Route{Action: a}) }
func (r *Router) Use(hs ...func())              { r.hooks = append(r.hooks, hs...) }
func setHook(f func())                          { Hook = f }
func notStored(f func())                        { f() }

func handler() {}
func other()   {}

func register(rt *Router) {
	rt.Group("/", handler)
	setHook(handler)
	rt.Use(handler, other)
	Hook = other
	router.Bind(handler)
	notStored(other)
}
`, extra)
	fns, pkg := declaredFuncs(f, info)
	bind := pkg.Imports()[0].Scope().Lookup("Bind")
	exported := map[types.Object]string{}
	pass := &analysis.Pass{Pkg: pkg, Fset: fset, TypesInfo: info, Files: []*ast.File{f},
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) { exported[obj] = fact.(*StoresFact).String() },
		ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
			if obj != bind {
				return false
			}
			*fact.(*StoresFact) = StoresFact{Params: []ParamSlot{{Index: 0, Slot: "example.com/router.Mux.h"}}}
			return true
		}}
	s := NewStored(pass, NewSlots(info, []*ast.File{f}))
	if s.All() != nil {
		t.Errorf("All() before Scan = %v, want none", s.All())
	}
	s.Scan([]*ast.File{f})
	for name, want := range map[string]string{
		"Group":     "stores(1→example.com/app.Route.Action)",
		"GET":       "stores(1→example.com/app.Route.Action)",
		"add":       "stores(0→example.com/app.Route.Action)",
		"Use":       "stores(0→example.com/app.Router.hooks)",
		"setHook":   "stores(0→example.com/app.Hook)",
		"notStored": "", "handler": "", "register": "",
	} {
		got := ""
		if ps := s.Of(fns[name]); ps != nil {
			got = (&StoresFact{Params: ps}).String()
		}
		if got != want {
			t.Errorf("Of(%s) = %s, want %s", name, got, want)
		}
		if exported[fns[name]] != want {
			t.Errorf("%s's StoresFact = %q, want %q", name, exported[fns[name]], want)
		}
	}
	if got := s.Of(bind.(*types.Func)); len(got) != 1 || got[0].Slot != "example.com/router.Mux.h" {
		t.Errorf("Of(router.Bind) = %v, want its fact's", got)
	}
	var got []string
	for _, st := range s.All() {
		in := "-"
		if st.In != nil {
			in = st.In.Name()
		}
		line := in + ": " + st.Slot + " = " + types.ExprString(st.Value)
		if s.IsParam(st) {
			line += " (param)"
		}
		got = append(got, line)
	}
	slices.Sort(got)
	want := []string{
		"GET: example.com/app.Route.Action = h (param)",
		"Group: example.com/app.Route.Action = h (param)",
		"Use: example.com/app.Router.hooks = hs (param)",
		"add: example.com/app.Route.Action = a (param)",
		"register: example.com/app.Hook = handler",
		"register: example.com/app.Hook = other",
		"register: example.com/app.Route.Action = handler",
		"register: example.com/app.Router.hooks = handler",
		"register: example.com/app.Router.hooks = other",
		"register: example.com/router.Mux.h = handler",
		"setHook: example.com/app.Hook = f (param)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stores:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKeptValue: a func value called from a field, an element or a
// package variable is kept where a request path cannot see into; one
// from a local, a parameter, a method or a call's result is not.
func TestKeptValue(t *testing.T) {
	t.Parallel()
	f, info := check(t, "example.com/app", `package app

type S struct {
	f  func()
	fs []func()
}

func (S) M() {}

var (
	V  func()
	fs []func()
	m  map[string]func()
)

func mk() func() { return nil }

func use(s S, p func()) {
	l := func() {}
	s.f()
	(s.f)()
	s.fs[0]()
	fs[0]()
	m["k"]()
	V()
	l()
	p()
	s.M()
	mk()()
}
`, nil)
	var got []string
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "use" {
			continue
		}
		for _, st := range fd.Body.List[1:] {
			fun := st.(*ast.ExprStmt).X.(*ast.CallExpr).Fun
			if KeptValue(info, fun) {
				got = append(got, types.ExprString(fun))
			}
		}
	}
	if want := []string{"s.f", "(s.f)", "s.fs[0]", "fs[0]", `m["k"]`, "V"}; !slices.Equal(got, want) {
		t.Errorf("kept: %v, want %v", got, want)
	}
}

// TestSlotPkg: a slot's key names its package by the path up to the
// first dot after the last slash, type parameters and all.
func TestSlotPkg(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]string{
		"example.com/router.Route.Action":    "example.com/router",
		"example.com/router.Route[T].Action": "example.com/router",
		"net/http.Server.Handler":            "net/http",
		"app.Hook":                           "app",
		"example.com/app":                    "example.com/app",
	} {
		if got := SlotPkg(key); got != want {
			t.Errorf("SlotPkg(%q) = %q, want %q", key, got, want)
		}
	}
}

// declaredFuncs returns f's functions by name, and their package.
func declaredFuncs(f *ast.File, info *types.Info) (map[string]*types.Func, *types.Package) {
	fns := map[string]*types.Func{}
	var pkg *types.Package
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn := info.Defs[fd.Name].(*types.Func)
			pkg = fn.Pkg()
			fns[fd.Name.Name] = fn
		}
	}
	return fns, pkg
}
