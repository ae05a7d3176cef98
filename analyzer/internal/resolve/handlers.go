package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// Target is one function that runs when a router calls the value it was
// given.
type Target struct {
	Func *types.Func  // a function or method the value names (or returns, with Call)
	Lit  *ast.FuncLit // a literal of this package
	// Call is set when Func is another package's function whose result is
	// the handler: what runs is what Func returns, which Func's own
	// package sees.
	Call bool
}

// Handlers resolves handler values within one package.
type Handlers struct {
	info *types.Info
	pkg  *types.Package
	// IsHandler reports whether a value of type t is itself a request
	// handler (a handler signature, or a type with ServeHTTP): the
	// arguments of such a type given to another package's wrapper
	// (http.StripPrefix("/x", h)) are followed too. Nil follows none.
	IsHandler func(t types.Type) bool
	decls     map[*types.Func]*ast.FuncDecl
	assigns   map[*types.Var][]value
	params    map[*types.Var]param
	// recvs are the receivers of the package's methods: in a method
	// called on a value (chain(h).toEchoHandler()), the receiver stands
	// for that value, as a parameter stands for its argument.
	recvs map[*types.Var]*types.Func
	// unbound, while ResolveArg runs, collects the parameters of the
	// function around the registration that the value resolves to.
	unbound *[]ParamRef
	// steps is what is left of one resolution's work (maxSteps).
	steps int
}

// value is what is assigned to a variable: an expression, or one result
// of a call that returns several.
type value struct {
	e      ast.Expr
	result int // the result's index, or -1 for a single value
}

// param is a parameter of one of the package's functions or literals.
type param struct {
	fn    *types.Func  // the declared function, or nil
	lit   *ast.FuncLit // the literal, or nil
	index int
}

// maxDepth bounds how many values (variables, calls, conversions) one
// resolution follows.
const maxDepth = 16

// maxSteps bounds the values one resolution visits in all. maxDepth alone
// bounds a path, not their number: functions that return calls of each
// other from several return statements (a package of error helpers,
// ardanlabs/service) made a resolution visit some fan-out to the 16th
// power and never end.
const maxSteps = 1 << 12

// New indexes the package's declarations and the assignments to its
// variables.
func New(info *types.Info, pkg *types.Package, files []*ast.File) *Handlers {
	h := &Handlers{info: info, pkg: pkg, decls: map[*types.Func]*ast.FuncDecl{},
		assigns: map[*types.Var][]value{}, params: map[*types.Var]param{}, recvs: map[*types.Var]*types.Func{}}
	addParams := func(fn *types.Func, lit *ast.FuncLit, fields *ast.FieldList) {
		if fields == nil {
			return
		}
		i := 0
		for _, f := range fields.List {
			if len(f.Names) == 0 {
				i++
				continue
			}
			for _, n := range f.Names {
				if v, ok := info.Defs[n].(*types.Var); ok {
					h.params[v] = param{fn: fn, lit: lit, index: i}
				}
				i++
			}
		}
	}
	lhsVar := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		if v, ok := info.Defs[id].(*types.Var); ok {
			return v
		}
		v, _ := info.Uses[id].(*types.Var)
		return v
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := info.Defs[n.Name].(*types.Func); ok {
					if n.Body != nil {
						h.decls[fn] = n
					}
					addParams(fn, nil, n.Type.Params)
					if n.Recv != nil {
						for _, f := range n.Recv.List {
							for _, id := range f.Names {
								if v, ok := info.Defs[id].(*types.Var); ok {
									h.recvs[v] = fn
								}
							}
						}
					}
				}
			case *ast.FuncLit:
				addParams(nil, n, n.Type.Params)
			case *ast.AssignStmt:
				switch {
				case len(n.Lhs) == len(n.Rhs):
					for i, l := range n.Lhs {
						if v := lhsVar(l); v != nil {
							h.assigns[v] = append(h.assigns[v], value{n.Rhs[i], -1})
						}
					}
				case len(n.Rhs) == 1:
					// index, static := handlers(…): each takes one result.
					for i, l := range n.Lhs {
						if v := lhsVar(l); v != nil {
							h.assigns[v] = append(h.assigns[v], value{n.Rhs[0], i})
						}
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i, id := range n.Names {
						if v, ok := info.Defs[id].(*types.Var); ok {
							h.assigns[v] = append(h.assigns[v], value{n.Values[i], -1})
						}
					}
				}
			}
			return true
		})
	}
	return h
}

// Resolve follows e, a value handed to a router, to the functions that
// run. When it finds none, why says what stopped it.
func (h *Handlers) Resolve(e ast.Expr) (ts []Target, why string) {
	h.steps = maxSteps
	return h.resolve(e, nil, 0, map[*types.Var]bool{})
}

// ResolveArg is Resolve for a registration's argument: it also returns
// the parameters of the declared function around the call that the value
// comes from (a service's router method that wraps its Handler parameter
// before registering it), whose callers' arguments are the handlers.
func (h *Handlers) ResolveArg(e ast.Expr) (ts []Target, ps []ParamRef, why string) {
	h.unbound = &ps
	defer func() { h.unbound = nil }()
	h.steps = maxSteps
	ts, why = h.resolve(e, nil, 0, map[*types.Var]bool{})
	return ts, ps, why
}

// frame is a call being followed into its callee (a declared function or
// a literal kept in a variable): the callee's parameters stand for the
// call's arguments.
type frame struct {
	fn   *types.Func
	lit  *ast.FuncLit
	call *ast.CallExpr
	up   *frame
}

// of reports whether p is a parameter of the frame's callee.
func (f *frame) of(p param) bool {
	return (p.fn != nil && p.fn == f.fn) || (p.lit != nil && p.lit == f.lit)
}

// arg is the argument the frame's call gives p: none for the variadic
// parameter of a call that spreads a slice into it (chain(h, m...) still
// gives h).
func (f *frame) arg(p param) (ast.Expr, bool) {
	if !f.of(p) || p.index >= len(f.call.Args) || (f.call.Ellipsis.IsValid() && p.index == len(f.call.Args)-1) {
		return nil, false
	}
	return f.call.Args[p.index], true
}

// recv is the value a frame's method call is made on, when v is the
// callee's receiver.
func (f *frame) recv(fn *types.Func) (ast.Expr, bool) {
	if fn == nil || f.fn != fn {
		return nil, false
	}
	sel, ok := ast.Unparen(f.call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	return sel.X, true
}

// bound is the frame and the expression that a parameter or receiver v
// stands for, when a frame being followed gives it.
func (h *Handlers) bound(v *types.Var, fr *frame) (ast.Expr, *frame, bool) {
	p, isParam := h.params[v]
	fn := h.recvs[v]
	for f := fr; f != nil; f = f.up {
		if isParam {
			if a, ok := f.arg(p); ok {
				return a, f, true
			}
		} else if x, ok := f.recv(fn); ok {
			return x, f, true
		}
	}
	return nil, nil, false
}

func (h *Handlers) resolve(e ast.Expr, fr *frame, depth int, seen map[*types.Var]bool) ([]Target, string) {
	e = ast.Unparen(e)
	if h.steps--; depth > maxDepth || h.steps < 0 {
		return nil, "too many steps to follow"
	}
	if lit, ok := e.(*ast.FuncLit); ok {
		return append([]Target{{Lit: lit}}, h.wrapped(lit, fr, depth, seen)...), ""
	}
	if fn := funcRef(h.info, e); fn != nil {
		return []Target{{Func: fn}}, ""
	}
	t := h.info.TypeOf(e)
	if fn := serveHTTP(t); fn != nil {
		return []Target{{Func: fn}}, ""
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		return h.call(x, -1, fr, depth, seen)
	case *ast.Ident:
		v, _ := h.info.Uses[x].(*types.Var)
		if v == nil {
			break
		}
		p, isParam := h.params[v]
		if isParam || h.recvs[v] != nil {
			// A parameter of the function being followed stands for its
			// call's argument, a receiver for the value it is called on.
			if a, f, ok := h.bound(v, fr); ok {
				return h.resolve(a, f.up, depth+1, seen)
			}
			if isParam && p.fn != nil && h.unbound != nil {
				if r := (ParamRef{p.fn.Origin(), p.index}); !slices.Contains(*h.unbound, r) {
					*h.unbound = append(*h.unbound, r)
				}
				return nil, ""
			}
			return nil, "parameter " + v.Name() + " of the function that registers it"
		}
		return h.variable(v, fr, depth, seen)
	case *ast.SelectorExpr:
		if sel := h.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			return nil, "field " + x.Sel.Name
		}
		if v, ok := h.info.Uses[x.Sel].(*types.Var); ok {
			return h.variable(v, fr, depth, seen) // another package's variable: no assignment seen here
		}
	case *ast.IndexExpr, *ast.IndexListExpr:
		return nil, "an element of a map, slice or array"
	}
	if t != nil && types.IsInterface(t) {
		return nil, "a value of interface type " + types.TypeString(t, types.RelativeTo(h.pkg))
	}
	return nil, "an expression syncio cannot follow"
}

// variable follows every value assigned to v in this package.
func (h *Handlers) variable(v *types.Var, fr *frame, depth int, seen map[*types.Var]bool) ([]Target, string) {
	if seen[v] {
		return nil, ""
	}
	seen[v] = true
	vals := h.assigns[v]
	if len(vals) == 0 {
		return nil, "variable " + v.Name() + ", assigned nowhere syncio can see"
	}
	var out []Target
	why := ""
	for _, val := range vals {
		var ts []Target
		var w string
		if call, ok := ast.Unparen(val.e).(*ast.CallExpr); ok && val.result >= 0 {
			ts, w = h.call(call, val.result, fr, depth+1, seen)
		} else {
			ts, w = h.resolve(val.e, fr, depth+1, seen)
		}
		out = append(out, ts...)
		if why == "" {
			why = w
		}
	}
	if len(out) == 0 && why == "" {
		why = "variable " + v.Name() + ", assigned only from itself"
	}
	return out, why
}

// call follows a call: a conversion to its operand, a call of this
// package's function into its return statements, another package's
// function to what it returns (and to the handlers it wraps).
// result is the index of the result followed, -1 for a call with one.
func (h *Handlers) call(call *ast.CallExpr, result int, fr *frame, depth int, seen map[*types.Var]bool) ([]Target, string) {
	if h.steps--; h.steps < 0 {
		return nil, "too many steps to follow"
	}
	if tv, ok := h.info.Types[call.Fun]; ok && tv.IsType() && result < 0 {
		if len(call.Args) != 1 {
			return nil, "a conversion syncio cannot follow"
		}
		return h.resolve(call.Args[0], fr, depth+1, seen)
	}
	fn := typeutil.StaticCallee(h.info, call)
	if fn == nil {
		// A literal kept in a variable and called:
		// monkey := func(fn F, prefix string) http.Handler {…}; monkey(f, "")
		if lits := h.litsOf(call.Fun); len(lits) > 0 {
			var out []Target
			why := ""
			for _, lit := range lits {
				ts, w := h.returns(lit.Body, result, &frame{lit: lit, call: call, up: fr}, "a func literal", depth, seen)
				out = append(out, ts...)
				if why == "" {
					why = w
				}
			}
			return out, why
		}
		return nil, "the result of a call through a func value or an interface"
	}
	fn = fn.Origin()
	if d := h.decls[fn]; d != nil && fn.Pkg() == h.pkg {
		return h.returns(d.Body, result, &frame{fn: fn, call: call, up: fr}, fn.Name(), depth, seen)
	}
	if result >= 0 {
		return nil, "a result of " + fn.Name() + ", which returns several"
	}
	out := []Target{{Func: fn, Call: true}}
	if h.IsHandler != nil {
		for _, a := range call.Args {
			if t := h.info.TypeOf(a); t != nil && h.IsHandler(t) {
				ts, _ := h.resolve(a, fr, depth+1, seen)
				out = append(out, ts...)
			}
		}
	}
	return out, ""
}

// returns follows what the callee of inner returns.
func (h *Handlers) returns(body *ast.BlockStmt, result int, inner *frame, name string, depth int, seen map[*types.Var]bool) ([]Target, string) {
	var out []Target
	why := ""
	for _, r := range returned(body, result) {
		ts, w := h.resolve(r, inner, depth+1, seen)
		out = append(out, ts...)
		if why == "" && w != "" {
			why = w + " (returned by " + name + ")"
		}
	}
	if len(out) == 0 && why == "" {
		why = name + " returns no handler syncio can follow"
	}
	return out, why
}

// litsOf returns the func literals a called variable holds, when every
// value assigned to it is one.
func (h *Handlers) litsOf(fun ast.Expr) []*ast.FuncLit {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := h.info.Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	var lits []*ast.FuncLit
	for _, val := range h.assigns[v] {
		lit, ok := ast.Unparen(val.e).(*ast.FuncLit)
		if !ok {
			return nil
		}
		lits = append(lits, lit)
	}
	return lits
}

// wrapped follows the functions that lit, a handler returned by a callee
// being followed, calls through that callee's parameters: the wrapped
// handler of withUser(fn) or handle(fn, prefix) runs too, on every
// request, and is a request root of its own.
func (h *Handlers) wrapped(lit *ast.FuncLit, fr *frame, depth int, seen map[*types.Var]bool) []Target {
	if fr == nil {
		return nil
	}
	var out []Target
	done := map[*types.Var]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.GoStmt); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		v, _ := h.info.Uses[id].(*types.Var)
		if v == nil || done[v] {
			return true
		}
		if _, isParam := h.params[v]; !isParam && h.recvs[v] == nil {
			return true
		}
		done[v] = true
		if a, f, ok := h.bound(v, fr); ok {
			ts, _ := h.resolve(a, f.up, depth+1, seen)
			out = append(out, ts...)
		}
		return true
	})
	return out
}

// returned lists the results of body's return statements (the single one,
// or the one at index result), not those of the func literals inside it.
func returned(body *ast.BlockStmt, result int) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			switch {
			case result < 0 && len(n.Results) == 1:
				out = append(out, n.Results[0])
			case result >= 0 && result < len(n.Results) && len(n.Results) > 1:
				out = append(out, n.Results[result])
			}
		}
		return true
	})
	return out
}

// Service resolves a service value handed to a generated registration
// (gRPC's RegisterXServer, connect-go's NewXHandler) to the methods of
// its concrete type that implement iface.
func (h *Handlers) Service(e ast.Expr, iface *types.Interface) ([]Target, string) {
	t := h.info.TypeOf(e)
	if t == nil {
		return nil, "an expression syncio cannot follow"
	}
	if types.IsInterface(t) {
		return nil, "a value of interface type " + types.TypeString(t, types.RelativeTo(h.pkg))
	}
	var out []Target
	for i := range iface.NumMethods() {
		m := iface.Method(i)
		if !m.Exported() {
			continue // mustEmbedUnimplemented…
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		cm, ok := obj.(*types.Func)
		if !ok || unimplemented(cm) {
			continue
		}
		out = append(out, Target{Func: cm.Origin()})
	}
	if len(out) == 0 {
		return nil, "a service whose methods all come from a generated Unimplemented type"
	}
	return out, ""
}

// unimplemented reports whether fn is a method of a generated
// Unimplemented*Server type, promoted into a service that does not
// implement it.
func unimplemented(fn *types.Func) bool {
	recv := named.Recv(fn)
	if recv == nil {
		return false
	}
	t := types.Unalias(recv.Type())
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	return ok && strings.HasPrefix(n.Obj().Name(), "Unimplemented")
}

// serveHTTP returns the ServeHTTP method of a concrete type t, or nil.
func serveHTTP(t types.Type) *types.Func {
	if t == nil || types.IsInterface(t) {
		return nil
	}
	if _, isFunc := t.Underlying().(*types.Signature); isFunc {
		return nil // a func value is followed as a value (http.HandlerFunc(f))
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	fn, _ := obj.(*types.Func)
	if fn == nil {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Params().Len() != 2 || !named.Is(sig.Params().At(0).Type(), false, "net/http", "ResponseWriter") {
		return nil
	}
	return fn.Origin()
}

// funcRef returns the function a func-valued expression names (f, pkg.F,
// x.Method as a method value, T.Method as a method expression), or nil.
func funcRef(info *types.Info, e ast.Expr) *types.Func {
	switch e := e.(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		if fn != nil && named.Recv(fn) == nil {
			return fn.Origin()
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return nil
			}
			if _, iface := sel.Recv().Underlying().(*types.Interface); iface {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			if fn != nil {
				return fn.Origin()
			}
			return nil
		}
		fn, _ := info.Uses[e.Sel].(*types.Func)
		if fn != nil {
			return fn.Origin()
		}
	case *ast.IndexExpr: // a generic function instantiated: f[T]
		return funcRef(info, ast.Unparen(e.X))
	}
	return nil
}

// Wraps reports whether lit calls a handler it was given: a parameter of a
// function around it (the fn of withUser(fn), the next of a middleware),
// called directly or through its ServeHTTP method. Such a literal is
// middleware or an adapter: on the request path of every route it wraps,
// so a request root, but not a route of its own, and a reader counting
// routes does not count it.
//
// A func parameter counts when it takes every type lit takes (withUser's fn
// is lit's own type; handle's fn takes the writer and request and more), so
// that a literal calling a logger it was given is not middleware.
func (h *Handlers) Wraps(lit *ast.FuncLit) bool {
	sig, _ := h.info.TypeOf(lit).(*types.Signature)
	if sig == nil || sig.Params().Len() == 0 {
		return false
	}
	outer := func(e ast.Expr, serve bool) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ := h.info.Uses[id].(*types.Var)
		p, isParam := h.params[v]
		// A parameter of lit itself is the request, not a wrapped handler.
		if !isParam || p.lit == lit {
			return false
		}
		if serve {
			return true
		}
		fsig, _ := v.Type().Underlying().(*types.Signature)
		return fsig != nil && takesAll(fsig, sig)
	}
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // a literal inside runs when it is called, if ever
		case *ast.CallExpr:
			switch fun := ast.Unparen(n.Fun).(type) {
			case *ast.Ident:
				found = outer(fun, false)
			case *ast.SelectorExpr:
				found = fun.Sel.Name == "ServeHTTP" && outer(fun.X, true)
			}
		}
		return true
	})
	return found
}

// takesAll reports whether f has a parameter of each of g's parameter types.
func takesAll(f, g *types.Signature) bool {
	for i := range g.Params().Len() {
		want := g.Params().At(i).Type()
		ok := false
		for j := range f.Params().Len() {
			if types.Identical(f.Params().At(j).Type(), want) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// ParamRef is a parameter of one of the package's declared functions.
type ParamRef struct {
	Func  *types.Func
	Index int
}

// Param reports whether e names a parameter of a declared function of
// the package (not of a literal, whose callers cannot be followed).
func (h *Handlers) Param(e ast.Expr) (ParamRef, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return ParamRef{}, false
	}
	v, _ := h.info.Uses[id].(*types.Var)
	p, ok := h.params[v]
	if v == nil || !ok || p.fn == nil {
		return ParamRef{}, false
	}
	return ParamRef{p.fn.Origin(), p.index}, true
}

// CalledParams lists the parameters of the declared function around both
// lit and at (a registration call) that lit calls, directly or through
// their ServeHTTP method: a registered literal runs them on every request
// it serves (hr's handle calls its f, h's adapter literal calls its f), so
// what the callers of that function pass there serves requests too. A
// literal of another function (an adapter's, reached by following the
// call that returns it) is left to Resolve, which already followed its
// parameters to the call's arguments. Unlike Wraps it asks nothing of the
// parameter's type: h's f takes the request and not the writer.
func (h *Handlers) CalledParams(lit *ast.FuncLit, at token.Pos) []ParamRef {
	var out []ParamRef
	seen := map[ParamRef]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false // runs later, if ever
		case *ast.CallExpr:
			fun := ast.Unparen(n.Fun)
			if sel, ok := fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "ServeHTTP" {
				fun = sel.X
			}
			if p, ok := h.Param(fun); ok && !seen[p] && h.declares(p.Func, lit.Pos(), at) {
				seen[p] = true
				out = append(out, p)
			}
		}
		return true
	})
	return out
}

// declares reports whether fn's declaration spans every position given.
func (h *Handlers) declares(fn *types.Func, ps ...token.Pos) bool {
	d := h.decls[fn]
	if d == nil {
		return false
	}
	for _, p := range ps {
		if p < d.Pos() || p >= d.End() {
			return false
		}
	}
	return true
}
