package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"sort"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Handler adapters. (Callbacks run on the spot, and their CallsFact, are
// resolve's: internal/resolve/sync.go.)
//
// A handler adapter returns a request handler literal (http.HandlerFunc,
// gin, echo or fiber) that calls one of its func-typed parameters:
// adapt(listUsers) makes listUsers a request root, whatever its shape.
// adapterFact records those parameters on the adapter; on a named func
// type whose ServeHTTP calls its receiver (the appHandler idiom) it holds
// -1, and a conversion appHandler(f) makes f a root. Only functions really
// passed to an adapter become roots: a shape alone (func(Deps, *Ctx))
// makes nothing a root.

// adapterFact lists the parameters whose functions an adapter turns into
// request handlers; -1 marks a func type whose ServeHTTP calls its value.
type adapterFact struct{ Params []int }

func (*adapterFact) AFact()           {}
func (f *adapterFact) String() string { return "adapter" + resolve.IntsString(f.Params) }

// callbacks is what the pre-pass learns about the package's functions
// before their bodies are summarised.
type callbacks struct {
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

// scanCallbacks runs before bodies are summarised: it finds the package's
// synchronous callbacks and adapters, exports them as facts, and finds the
// functions passed to adapters.
func (r *runner) scanCallbacks(files []*ast.File) {
	info := r.pass.TypesInfo
	cb := &callbacks{
		adapters: map[*types.Func][]int{}, adapterTypes: map[*types.TypeName]bool{},
		adapted: map[*types.Func]bool{}, adaptedLits: map[*ast.FuncLit]bool{},
	}
	r.cb = cb
	r.reg = &registered{funcs: map[*types.Func]string{}, lits: map[*ast.FuncLit]string{}, registrars: map[*types.Func]*registrarFact{}}
	r.handlers = resolve.New(info, r.pass.Pkg, files)
	r.handlers.IsHandler = isHandlerType
	r.sync = resolve.NewSync(r.pass, r.slots)
	var decls []resolve.Decl
	for fd, fn := range funcDecls(info, files) {
		sig := fn.Type().(*types.Signature)
		decls = append(decls, resolve.Decl{Fd: fd, Fn: fn, Params: resolve.FuncParams(sig)})
		// The appHandler idiom: a func type whose ServeHTTP calls the
		// value it is called on.
		if recv := sig.Recv(); recv != nil && resolve.DeclRoot(fn, r.dirs.handler(fd.Doc)) != resolve.NotRoot {
			if n, ok := types.Unalias(recv.Type()).(*types.Named); ok {
				if _, isFunc := n.Underlying().(*types.Signature); isFunc &&
					len(r.sync.Calls(fd.Body, map[*types.Var]int{recv: 0})) > 0 {
					cb.adapterTypes[n.Obj()] = true
					r.pass.ExportObjectFact(n.Obj(), &adapterFact{Params: []int{-1}})
				}
			}
		}
	}
	r.sync.Scan(decls)
	r.scanMemos(decls)
	for _, d := range decls {
		if d.Params == nil {
			continue
		}
		if ps := r.adapterOf(d.Fd, d.Params); len(ps) > 0 {
			cb.adapters[d.Fn] = ps
			r.pass.ExportObjectFact(d.Fn, &adapterFact{Params: ps})
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
					if resolve.SignatureRoot(sig) == resolve.NotRoot {
						continue
					}
					out = append(out, r.sync.Calls(lit, params)...)
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
func (r *runner) handlerTypes(decls []resolve.Decl) {
	info := r.pass.TypesInfo
	calls := map[*types.Func]map[*types.TypeName]bool{}
	callees := map[*types.Func][]*types.Func{}
	for _, d := range decls {
		ast.Inspect(d.Fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.CallExpr:
				if fn := typeutil.StaticCallee(info, n); fn != nil {
					if fn.Pkg() == r.pass.Pkg {
						callees[d.Fn] = append(callees[d.Fn], fn.Origin())
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
		if resolve.DeclRoot(d.Fn, r.dirs.handler(d.Fd.Doc)) == resolve.NotRoot {
			continue
		}
		for t := range calls[d.Fn] {
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
