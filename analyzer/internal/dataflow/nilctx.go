package dataflow

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// The nil tests on a context that a caller decides (paths' guard.go):
// in a body, the stretches that run only while a context parameter, or a
// context field that the body's functional options fill, is nil; at a
// call, which of those the call's arguments make false.

// CtxOptions returns, for each context field of a struct that a function
// of the package sets from its own context parameter (the functional
// option WithContext(c) returning func(o *options) { o.ctx = c }), the
// keys of those functions (paths.OptionKey).
func CtxOptions(pkg *types.Package, info *types.Info, files []*ast.File) map[*types.Var]paths.Guard {
	out := map[*types.Var]paths.Guard{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			sig := fn.Type().(*types.Signature)
			if !optionResult(sig) {
				continue
			}
			params := ctxParams(sig)
			if len(params) == 0 {
				continue
			}
			key := paths.OptionKey(knowledge.Qualified(fn, pkg.Path()))
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != len(as.Rhs) {
					return true
				}
				for i, lhs := range as.Lhs {
					field := ctxField(info, lhs)
					id, ok := ast.Unparen(as.Rhs[i]).(*ast.Ident)
					if field == nil || !ok {
						continue
					}
					if _, ok := params[info.Uses[id]]; ok && !slices.Contains(out[field], key) {
						out[field] = append(out[field], key)
					}
				}
				return true
			})
		}
	}
	return out
}

// optionResult reports whether sig returns one func or interface value
// other than an error: what a functional option's constructor returns.
func optionResult(sig *types.Signature) bool {
	if sig.Results().Len() != 1 || named.IsError(sig.Results().At(0).Type()) {
		return false
	}
	switch sig.Results().At(0).Type().Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	}
	return false
}

// ctxParams are sig's context parameters, by index.
func ctxParams(sig *types.Signature) map[types.Object]int {
	out := map[types.Object]int{}
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); named.IsContext(p.Type()) {
			out[p] = i
		}
	}
	return out
}

// ctxField is the context-typed struct field e selects, or nil.
func ctxField(info *types.Info, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || !named.IsContext(s.Obj().Type()) {
		return nil
	}
	return s.Obj().(*types.Var)
}

// NilGuards returns the stretches of body (a function of signature sig)
// that run only while a context the caller gives is nil: the body of
// `if X == nil` (or of a conjunction with it), the else of `if X != nil`
// (or of a disjunction with it), and what follows an `if X != nil` whose
// body returns. X is a context parameter the body never assigns, or the
// context field of a local the body fills by applying its variadic
// options (for _, o := range opts { o.apply(&options) }) that a function
// of the package sets from its context (opts, CtxOptions).
func NilGuards(info *types.Info, sig *types.Signature, body *ast.BlockStmt, opts map[*types.Var]paths.Guard) []paths.GuardSpan {
	if sig == nil || body == nil {
		return nil
	}
	params := ctxParams(sig)
	filled := map[types.Object]bool{}
	if len(opts) > 0 && sig.Variadic() {
		filled = optionsFilled(info, sig.Params().At(sig.Params().Len()-1), body)
	}
	if len(params) == 0 && len(filled) == 0 {
		return nil
	}
	// A parameter the body assigns (or whose address it takes) may be nil
	// whatever the caller passed: the spans its tests guard are dropped.
	assigned := map[types.Object]bool{}
	var on []types.Object   // the parameter each span tests, nil for a field
	var tested types.Object // the parameter guard last returned a guard of
	guard := func(e ast.Expr) paths.Guard {
		tested = nil
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			if i, ok := params[info.Uses[e]]; ok {
				tested = info.Uses[e]
				return paths.Guard{paths.ParamKey(i)}
			}
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(e.X).(*ast.Ident); ok && filled[info.Uses[id]] {
				if f := ctxField(info, e); f != nil {
					return opts[f]
				}
			}
		}
		return nil
	}
	// test returns the guard of cond when it is `X op nil` or, through
	// join (&& for ==, || for !=), has such a term.
	var test func(cond ast.Expr, op, join token.Token) paths.Guard
	test = func(cond ast.Expr, op, join token.Token) paths.Guard {
		b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
		switch {
		case !ok:
			return nil
		case b.Op == join:
			if g := test(b.X, op, join); g != nil {
				return g
			}
			return test(b.Y, op, join)
		case b.Op != op:
			return nil
		case info.Types[b.Y].IsNil():
			return guard(b.X)
		case info.Types[b.X].IsNil():
			return guard(b.Y)
		}
		return nil
	}
	var spans []paths.GuardSpan
	add := func(start, end token.Pos, g paths.Guard) {
		spans = append(spans, paths.GuardSpan{Start: start, End: end, Guard: g})
		on = append(on, tested)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
					assigned[info.ObjectOf(id)] = true
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				assigned[info.ObjectOf(id)] = true
			}
		case *ast.IfStmt:
			if g := test(n.Cond, token.EQL, token.LAND); g != nil {
				add(n.Body.Pos(), n.Body.End(), g)
			}
			if g := test(n.Cond, token.NEQ, token.LOR); g != nil && n.Else != nil {
				add(n.Else.Pos(), n.Else.End(), g)
			}
		case *ast.BlockStmt:
			for i, st := range n.List {
				ifs, ok := st.(*ast.IfStmt)
				if !ok || ifs.Else != nil || i+1 == len(n.List) || !returns(ifs.Body) {
					continue
				}
				if g := test(ifs.Cond, token.NEQ, token.LOR); g != nil {
					add(n.List[i+1].Pos(), n.End(), g)
					break
				}
			}
		}
		return true
	})
	kept := spans[:0]
	for i, s := range spans {
		if on[i] == nil || !assigned[on[i]] {
			kept = append(kept, s)
		}
	}
	return kept
}

// returns reports whether a block ends in a return.
func returns(b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	_, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok
}

// optionsFilled returns the locals of body that each element of the
// variadic parameter v is applied to: x in `for _, o := range v {
// o.apply(&x) }` or `o(x)`.
func optionsFilled(info *types.Info, v *types.Var, body *ast.BlockStmt) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || rs.Value == nil {
			return true
		}
		over, ok := ast.Unparen(rs.X).(*ast.Ident)
		val, ok2 := rs.Value.(*ast.Ident)
		if !ok || !ok2 || info.Uses[over] != v {
			return true
		}
		o := info.ObjectOf(val)
		ast.Inspect(rs.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			fun := ast.Unparen(call.Fun)
			if sel, ok := fun.(*ast.SelectorExpr); ok {
				fun = ast.Unparen(sel.X)
			}
			if id, ok := fun.(*ast.Ident); !ok || info.Uses[id] != o {
				return true
			}
			arg := ast.Unparen(call.Args[0])
			if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
				arg = ast.Unparen(u.X)
			}
			if id, ok := arg.(*ast.Ident); ok {
				if x := info.Uses[id]; x != nil && body.Pos() <= x.Pos() && x.Pos() < body.End() {
					out[x] = true
				}
			}
			return true
		})
		return true
	})
	return out
}

// CtxGiven returns what call gives (paths.ParamKey, paths.OptionKey): the
// indexes of its context arguments that are not the literal nil, and the
// functions that build its variadic arguments from such a context.
func CtxGiven(info *types.Info, call *ast.CallExpr) []string {
	sig, _ := info.TypeOf(call.Fun).(*types.Signature)
	if sig == nil {
		return nil
	}
	var out []string
	n := sig.Params().Len()
	for i, a := range call.Args {
		if info.Types[a].IsNil() || (i >= n && !sig.Variadic()) {
			continue
		}
		if sig.Variadic() && i >= n-1 {
			if inner, ok := ast.Unparen(a).(*ast.CallExpr); ok && !call.Ellipsis.IsValid() {
				if fn := typeutil.StaticCallee(info, inner); fn != nil && fn.Pkg() != nil && givesCtx(info, inner) {
					out = append(out, paths.OptionKey(knowledge.Qualified(fn.Origin(), fn.Pkg().Path())))
				}
			}
			continue
		}
		if named.IsContext(sig.Params().At(i).Type()) {
			out = append(out, paths.ParamKey(i))
		}
	}
	return out
}

// givesCtx reports whether call passes a context argument that is not
// the literal nil.
func givesCtx(info *types.Info, call *ast.CallExpr) bool {
	sig, _ := info.TypeOf(call.Fun).(*types.Signature)
	if sig == nil || sig.Variadic() {
		return false
	}
	for i, a := range call.Args {
		if i < sig.Params().Len() && named.IsContext(sig.Params().At(i).Type()) && !info.Types[a].IsNil() {
			return true
		}
	}
	return false
}
