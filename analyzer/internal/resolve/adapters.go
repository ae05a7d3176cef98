package resolve

import (
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// Handler adapters.
//
// A handler adapter returns a request handler literal (http.HandlerFunc,
// gin, echo or fiber) that calls one of its func-typed parameters:
// adapt(listUsers) makes listUsers a request root, whatever its shape.
// AdapterFact records those parameters on the adapter; on a named func
// type whose ServeHTTP calls its receiver (the appHandler idiom) it holds
// -1, and a conversion appHandler(f) makes f a root. Only functions really
// passed to an adapter become roots (the analyzer finds those): a shape
// alone (func(Deps, *Ctx)) makes nothing a root.

// AdapterFact lists the parameters whose functions an adapter turns into
// request handlers; -1 marks a func type whose ServeHTTP calls its value.
type AdapterFact struct{ Params []int }

func (*AdapterFact) AFact()           {}
func (f *AdapterFact) String() string { return "adapter" + IntsString(f.Params) }
func (f *AdapterFact) params() []int  { return f.Params }

// Adapters are the package's adapters and adapter func types, found by
// RootMethod and Scan and exported as facts, and other packages' by their
// facts.
type Adapters struct {
	pass     *analysis.Pass
	handlers *Handlers
	sync     *Sync
	funcs    map[*types.Func][]int
	types    map[*types.TypeName]bool
}

// NewAdapters returns the adapters of pass's package, none found yet;
// handlers follows a returned handler kept in a local, sync says which
// parameters a literal calls.
func NewAdapters(pass *analysis.Pass, handlers *Handlers, sync *Sync) *Adapters {
	return &Adapters{pass: pass, handlers: handlers, sync: sync,
		funcs: map[*types.Func][]int{}, types: map[*types.TypeName]bool{}}
}

// Params returns the parameters of fn that the adapter fn turns into
// request handlers, or nil when fn is no adapter.
func (a *Adapters) Params(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	ps, _ := funcParams[int, AdapterFact](a.pass, a.funcs, fn)
	return ps
}

// IsType reports whether t is an adapter func type: a value converted to
// it is a request handler.
func (a *Adapters) IsType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj() == nil || n.Obj().Pkg() == nil {
		return false
	}
	if n.Obj().Pkg() == a.pass.Pkg {
		return a.types[n.Obj()]
	}
	var f AdapterFact
	return a.pass.ImportObjectFact(n.Obj(), &f)
}

// RootMethod records the appHandler idiom: fd, a request root declared
// on recv, makes recv's type an adapter when that type is a named func
// type and fd calls the value it is called on.
func (a *Adapters) RootMethod(fd *ast.FuncDecl, recv *types.Var) {
	if n, ok := types.Unalias(recv.Type()).(*types.Named); ok {
		if _, isFunc := n.Underlying().(*types.Signature); isFunc &&
			len(a.sync.Calls(fd.Body, map[*types.Var]int{recv: 0})) > 0 {
			a.types[n.Obj()] = true
			a.pass.ExportObjectFact(n.Obj(), &AdapterFact{Params: []int{-1}})
		}
	}
}

// Scan finds the adapters among decls and the handler func types that
// the request roots among them (isRoot) call, once sync has scanned the
// package.
func (a *Adapters) Scan(decls []Decl, isRoot func(Decl) bool) {
	for _, d := range decls {
		if d.Params == nil {
			continue
		}
		if ps := a.of(d.Fd, d.Params); len(ps) > 0 {
			a.funcs[d.Fn] = ps
			a.pass.ExportObjectFact(d.Fn, &AdapterFact{Params: ps})
		}
	}
	a.handlerTypes(decls, isRoot)
}

// of returns the func-typed parameters of fd that a request handler
// literal it returns calls synchronously.
func (a *Adapters) of(fd *ast.FuncDecl, params map[*types.Var]int) []int {
	info := a.pass.TypesInfo
	var out []int
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a nested literal's returns are its own
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				e = ast.Unparen(e)
				// http.HandlerFunc(func(w, r) {…})
				if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
					if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
						e = ast.Unparen(call.Args[0])
					}
				}
				lits := []*ast.FuncLit{}
				switch e := e.(type) {
				case *ast.FuncLit:
					lits = append(lits, e)
				case *ast.Ident:
					// The handler kept in a local first:
					// h := func(w, r) {…; f(…)}; return h
					ts, _ := a.handlers.Resolve(e)
					for _, t := range ts {
						if t.Lit != nil && t.Lit.Pos() >= fd.Pos() && t.Lit.End() <= fd.End() {
							lits = append(lits, t.Lit)
						}
					}
				}
				for _, lit := range lits {
					sig, _ := info.TypeOf(lit).(*types.Signature)
					if SignatureRoot(sig) == NotRoot {
						continue
					}
					out = append(out, a.sync.Calls(lit, params)...)
				}
			}
		}
		return true
	})
	sort.Ints(out)
	return out
}

// handlerTypes finds the package's handler func types: a named func type
// (type Handler func(*Context)) whose values a request root calls, directly
// or through the package's own functions (a router's ServeHTTP running
// c.chain[i](c) in Context.Next). Functions converted to such a type are
// request roots, as with an adapter; the type's AdapterFact tells other
// packages. Types of the standard library and the frameworks are not
// handler types here: their handlers are roots by signature.
func (a *Adapters) handlerTypes(decls []Decl, isRoot func(Decl) bool) {
	info := a.pass.TypesInfo
	calls := map[*types.Func]map[*types.TypeName]bool{}
	callees := map[*types.Func][]*types.Func{}
	for _, d := range decls {
		ast.Inspect(d.Fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if fn := typeutil.StaticCallee(info, n); fn != nil {
					if fn.Pkg() == a.pass.Pkg {
						callees[d.Fn] = append(callees[d.Fn], fn.Origin())
					}
					return true
				}
				tv, ok := info.Types[n.Fun]
				if !ok || tv.IsType() || tv.Type == nil {
					return true
				}
				named, ok := types.Unalias(tv.Type).(*types.Named)
				if !ok || named.Obj().Pkg() != a.pass.Pkg {
					return true
				}
				if _, isFunc := named.Underlying().(*types.Signature); isFunc {
					if calls[d.Fn] == nil {
						calls[d.Fn] = map[*types.TypeName]bool{}
					}
					calls[d.Fn][named.Obj()] = true
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for fn, cs := range callees {
			for _, c := range cs {
				for t := range calls[c] {
					if !calls[fn][t] {
						if calls[fn] == nil {
							calls[fn] = map[*types.TypeName]bool{}
						}
						calls[fn][t] = true
						changed = true
					}
				}
			}
		}
	}
	for _, d := range decls {
		if !isRoot(d) {
			continue
		}
		for t := range calls[d.Fn] {
			if !a.types[t] {
				a.types[t] = true
				a.pass.ExportObjectFact(t, &AdapterFact{Params: []int{-1}})
			}
		}
	}
}
