package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Callbacks and handler adapters.
//
// A func literal or function value passed to a parameter that the callee
// calls before it returns (gorm's Transaction, a cache loader, a retry
// helper, withParam(c, "id", func(id uint){…})) runs on the caller's
// path. callsFact records those parameters on the callee, so that it works
// across packages and into dependency modules. A callee that only stores
// the function, or starts it with go, has no fact.
//
// A handler adapter returns a request handler literal (http.HandlerFunc,
// gin, echo or fiber) that calls one of its func-typed parameters:
// adapt(listUsers) makes listUsers a request root, whatever its shape.
// adapterFact records those parameters on the adapter; on a named func
// type whose ServeHTTP calls its receiver (the appHandler idiom) it holds
// -1, and a conversion appHandler(f) makes f a root. Only functions really
// passed to an adapter become roots: a shape alone (func(Deps, *Ctx))
// makes nothing a root.

// callsFact lists the parameters (by index) that a function calls
// synchronously.
type callsFact struct{ Params []int }

func (*callsFact) AFact()           {}
func (f *callsFact) String() string { return "calls" + intsString(f.Params) }

// adapterFact lists the parameters whose functions an adapter turns into
// request handlers; -1 marks a func type whose ServeHTTP calls its value.
type adapterFact struct{ Params []int }

func (*adapterFact) AFact()           {}
func (f *adapterFact) String() string { return "adapter" + intsString(f.Params) }

func intsString(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// callbacks is what the pre-pass learns about the package's functions
// before their bodies are summarised.
type callbacks struct {
	calls        map[*types.Func][]int
	adapters     map[*types.Func][]int
	adapterTypes map[*types.TypeName]bool
	adapted      map[*types.Func]bool  // local functions passed to an adapter
	adaptedLits  map[*ast.FuncLit]bool // literals passed to an adapter
	adaptedExt   []adaptedRef          // other packages' functions passed to an adapter
}

// adaptedRef is another package's function passed to an adapter here.
type adaptedRef struct {
	fn       *types.Func
	pos, end token.Pos
	in       string // the function that registers it
	ignores  []*ignore
	// how and framework say, for the roots report, what made it a root:
	// an adapter of the program, or a router's registration call.
	how, framework string
}

// addExt adds ref to adaptedExt, unless the same function is there already
// at the same argument or at one around or inside it: an adapter's argument
// that a registration call resolves to as well (mux.HandleFunc("/r",
// adapt(h.Report)) gives h.Report from the adapter and, through adapt's
// returned literal, from the registration). One root, at the narrower
// place, the function value itself; two would report every finding twice.
func (cb *callbacks) addExt(ref adaptedRef) {
	for i, x := range cb.adaptedExt {
		if x.fn != ref.fn {
			continue
		}
		switch {
		case x.pos <= ref.pos && ref.end <= x.end:
			cb.adaptedExt[i] = ref
			return
		case ref.pos <= x.pos && x.end <= ref.end:
			return
		}
	}
	cb.adaptedExt = append(cb.adaptedExt, ref)
}

type decl struct {
	fd     *ast.FuncDecl
	fn     *types.Func
	params map[*types.Var]int
}

// calledParams returns the parameters fn calls synchronously.
func (r *runner) calledParams(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == r.pass.Pkg {
		return r.cb.calls[fn]
	}
	var f callsFact
	if fn.Pkg() != nil && r.pass.ImportObjectFact(fn, &f) {
		return f.Params
	}
	if fn.Pkg() != nil && stdlibPath(fn.Pkg().Path()) {
		return knowledge.StdCallbacks[qualified(fn, fn.Pkg().Path())]
	}
	return nil
}

func (r *runner) adapterParams(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if fn.Pkg() == r.pass.Pkg {
		return r.cb.adapters[fn]
	}
	var f adapterFact
	if fn.Pkg() != nil && r.pass.ImportObjectFact(fn, &f) {
		return f.Params
	}
	return nil
}

func (r *runner) adapterType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj() == nil || n.Obj().Pkg() == nil {
		return false
	}
	if n.Obj().Pkg() == r.pass.Pkg {
		return r.cb.adapterTypes[n.Obj()]
	}
	var f adapterFact
	return r.pass.ImportObjectFact(n.Obj(), &f)
}

// syncCalls returns the indexes (per params) of the parameters that body
// calls synchronously: directly, in a literal called on the spot or passed
// to another synchronous parameter, or by passing them on to one.
func (r *runner) syncCalls(body ast.Node, params map[*types.Var]int) []int {
	if body == nil || len(params) == 0 {
		return nil
	}
	info := r.pass.TypesInfo
	found := map[int]bool{}
	invoked := resolve.HandedAndRun(info, body)
	// paramOf finds the parameters a func value may be: the parameter, an
	// element of it, or a local it was appended to (handlers =
	// append(handlers, more...); handlers[i](e)).
	paramOf := func(e ast.Expr) (int, bool) {
		if r.slots != nil {
			if is := r.slots.Params(e, params); len(is) > 0 {
				for _, i := range is[1:] {
					found[i] = true
				}
				return is[0], true
			}
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return 0, false
		}
		v, _ := info.Uses[id].(*types.Var)
		i, ok := params[v]
		return i, ok
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n] || n == body
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				invoked[lit] = true
			}
			if i, ok := paramOf(n.Fun); ok {
				found[i] = true
			}
			for _, j := range r.calledParams(typeutil.StaticCallee(info, n)) {
				for _, a := range calledArgs(info, n, j) {
					if i, ok := paramOf(a); ok {
						found[i] = true
					}
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						invoked[lit] = true
					}
				}
			}
		}
		return true
	})
	out := make([]int, 0, len(found))
	for i := range found {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// funcParams maps a signature's func-typed parameters to their indexes.
func funcParams(sig *types.Signature) map[*types.Var]int {
	var m map[*types.Var]int
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		t := p.Type()
		if sl, ok := t.(*types.Slice); ok && sig.Variadic() && i == sig.Params().Len()-1 {
			t = sl.Elem() // fns ...func(): the functions given one by one
		}
		if _, ok := t.Underlying().(*types.Signature); ok {
			if m == nil {
				m = map[*types.Var]int{}
			}
			m[p] = i
		}
	}
	return m
}

// scanCallbacks runs before bodies are summarised: it finds the package's
// synchronous callbacks and adapters, exports them as facts, and finds the
// functions passed to adapters.
func (r *runner) scanCallbacks(files []*ast.File) {
	info := r.pass.TypesInfo
	cb := &callbacks{
		calls: map[*types.Func][]int{}, adapters: map[*types.Func][]int{}, adapterTypes: map[*types.TypeName]bool{},
		adapted: map[*types.Func]bool{}, adaptedLits: map[*ast.FuncLit]bool{},
	}
	r.cb = cb
	r.reg = &registered{funcs: map[*types.Func]string{}, lits: map[*ast.FuncLit]string{}, registrars: map[*types.Func]*registrarFact{}}
	r.handlers = resolve.New(info, r.pass.Pkg, files)
	r.handlers.IsHandler = isHandlerType
	var decls []decl
	for fd, fn := range funcDecls(info, files) {
		sig := fn.Type().(*types.Signature)
		decls = append(decls, decl{fd, fn, funcParams(sig)})
		// The appHandler idiom: a func type whose ServeHTTP calls the
		// value it is called on.
		if recv := sig.Recv(); recv != nil && declRoot(fd, fn, r.dirs) != notRoot {
			if n, ok := types.Unalias(recv.Type()).(*types.Named); ok {
				if _, isFunc := n.Underlying().(*types.Signature); isFunc &&
					len(r.syncCalls(fd.Body, map[*types.Var]int{recv: 0})) > 0 {
					cb.adapterTypes[n.Obj()] = true
					r.pass.ExportObjectFact(n.Obj(), &adapterFact{Params: []int{-1}})
				}
			}
		}
	}
	// Synchronous parameters: a fixpoint, since passing a parameter on to
	// a local function's synchronous parameter counts.
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if d.params == nil {
				continue
			}
			got := r.syncCalls(d.fd.Body, d.params)
			if len(got) != len(cb.calls[d.fn]) {
				cb.calls[d.fn] = got
				changed = true
			}
		}
	}
	for _, d := range decls {
		if d.params == nil {
			continue
		}
		if ps := cb.calls[d.fn]; len(ps) > 0 {
			r.pass.ExportObjectFact(d.fn, &callsFact{Params: ps})
		}
		if ps := r.adapterOf(d.fd, d.params); len(ps) > 0 {
			cb.adapters[d.fn] = ps
			r.pass.ExportObjectFact(d.fn, &adapterFact{Params: ps})
		}
	}
	r.handlerTypes(decls)
	// What is passed to an adapter, anywhere in the package: as an
	// argument to an adapter's parameter, or converted (explicitly, as an
	// argument, a field or an element) to an adapter func type.
	for _, f := range files {
		for _, d := range f.Decls {
			in := r.pass.Pkg.Name()
			var ignores []*ignore
			if fd, ok := d.(*ast.FuncDecl); ok {
				in = fd.Name.Name
				if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil {
					in = declName(fd, fn)
				}
				ignores = r.dirs.funcIgnores(fd.Doc)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				r.registration(call, in, ignores)
				r.noteCall(call, in, ignores)
				var args []ast.Expr
				if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
					if len(call.Args) == 1 && r.adapterType(tv.Type) {
						args = call.Args
					}
				} else {
					for _, j := range r.adapterParams(typeutil.StaticCallee(info, call)) {
						if j >= 0 && j < len(call.Args) {
							args = append(args, call.Args[j])
						}
					}
					// Implicit conversions: router.For(path, s.handleIndex)
					// with a parameter of a handler func type.
					if sig, _ := info.TypeOf(call.Fun).(*types.Signature); sig != nil {
						for i, a := range call.Args {
							var pt types.Type
							switch {
							case sig.Variadic() && i >= sig.Params().Len()-1:
								if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok && !call.Ellipsis.IsValid() {
									pt = sl.Elem()
								}
							case i < sig.Params().Len():
								pt = sig.Params().At(i).Type()
							}
							if pt != nil && r.adapterType(pt) {
								args = append(args, a)
							}
						}
					}
				}
				for _, a := range args {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						cb.adaptedLits[lit] = true
						continue
					}
					fn := funcRef(info, a)
					switch {
					case fn == nil:
					case fn.Pkg() == r.pass.Pkg:
						cb.adapted[fn.Origin()] = true
					default:
						cb.addExt(adaptedRef{fn: fn.Origin(), pos: a.Pos(), end: a.End(), in: in, ignores: ignores, how: seen.HowAdapter, framework: "custom"})
					}
				}
				return true
			})
		}
	}
	r.registrarCalls()
}

// adapterOf returns the func-typed parameters of fd that a request handler
// literal it returns calls synchronously.
func (r *runner) adapterOf(fd *ast.FuncDecl, params map[*types.Var]int) []int {
	info := r.pass.TypesInfo
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
					ts, _ := r.handlers.Resolve(e)
					for _, t := range ts {
						if t.Lit != nil && t.Lit.Pos() >= fd.Pos() && t.Lit.End() <= fd.End() {
							lits = append(lits, t.Lit)
						}
					}
				}
				for _, lit := range lits {
					sig, _ := info.TypeOf(lit).(*types.Signature)
					if signatureRoot(sig) == notRoot {
						continue
					}
					out = append(out, r.syncCalls(lit, params)...)
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
// request roots, as with an adapter; the type's adapterFact tells other
// packages. Types of the standard library and the frameworks are not
// handler types here: their handlers are roots by signature.
func (r *runner) handlerTypes(decls []decl) {
	info := r.pass.TypesInfo
	calls := map[*types.Func]map[*types.TypeName]bool{}
	callees := map[*types.Func][]*types.Func{}
	for _, d := range decls {
		ast.Inspect(d.fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if fn := typeutil.StaticCallee(info, n); fn != nil {
					if fn.Pkg() == r.pass.Pkg {
						callees[d.fn] = append(callees[d.fn], fn.Origin())
					}
					return true
				}
				tv, ok := info.Types[n.Fun]
				if !ok || tv.IsType() || tv.Type == nil {
					return true
				}
				named, ok := types.Unalias(tv.Type).(*types.Named)
				if !ok || named.Obj().Pkg() != r.pass.Pkg {
					return true
				}
				if _, isFunc := named.Underlying().(*types.Signature); isFunc {
					if calls[d.fn] == nil {
						calls[d.fn] = map[*types.TypeName]bool{}
					}
					calls[d.fn][named.Obj()] = true
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
		if declRoot(d.fd, d.fn, r.dirs) == notRoot {
			continue
		}
		for t := range calls[d.fn] {
			if !r.cb.adapterTypes[t] {
				r.cb.adapterTypes[t] = true
				r.pass.ExportObjectFact(t, &adapterFact{Params: []int{-1}})
			}
		}
	}
}

// funcDecls yields the functions and methods declared in files that have
// a body, with their objects.
func funcDecls(info *types.Info, files []*ast.File) iter.Seq2[*ast.FuncDecl, *types.Func] {
	return func(yield func(*ast.FuncDecl, *types.Func) bool) {
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil && !yield(fd, fn) {
					return
				}
			}
		}
	}
}
