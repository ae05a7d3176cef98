package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// Func values stored and called later (internal/join's stores.go): the
// literals stored or called through a value, summarised; a call through a
// value or a slot turned into items.

// laterLits returns summaries for the func literals the package stores
// into slots or calls through a value (throughValue), that are no
// request roots of their own, so that their callers and the join can say
// what they do.
func (r *runner) laterLits(files []*ast.File, roots map[*ast.FuncLit]bool) []*paths.Summary {
	var lits []*ast.FuncLit
	for _, st := range r.scanned.stored.All() {
		// Stored as written, or returned by a function of the package
		// (Func: middleware()), or kept in a local first.
		ts, _ := r.scanned.handlers.Resolve(st.Value)
		for _, t := range ts {
			if t.Lit != nil {
				lits = append(lits, t.Lit)
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && r.view.throughValue(call) {
				ts, _ := r.scanned.handlers.Resolve(call.Fun)
				for _, t := range ts {
					if t.Lit != nil {
						lits = append(lits, t.Lit)
					}
				}
			}
			return true
		})
	}
	var out []*paths.Summary
	for _, lit := range lits {
		if roots[lit] || r.litSummaries[lit] != nil {
			continue
		}
		sig, _ := r.view.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		s := &paths.Summary{Root: resolve.NotRoot, Sig: sig, Pos: lit.Pos(), Name: r.view.litName(lit)}
		s.Items = r.scanned.collect(sig, lit.Body)
		r.litSummaries[lit] = s
		out = append(out, s)
	}
	return out
}

// litName names a literal in a chain: func literal at file.go:12.
func (v *pkgView) litName(lit *ast.FuncLit) string {
	p := v.pass.Fset.Position(lit.Pos())
	return "func literal at " + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// throughValue reports whether call calls a func value that is neither a
// declared function, nor an interface's method, nor a literal called as
// written: a local, a field, a package variable, an element, a result.
func (v *pkgView) throughValue(call *ast.CallExpr) bool {
	info := v.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); lit {
		return false
	}
	return typeutil.StaticCallee(info, call) == nil && resolve.InterfaceMethod(info, call) == nil
}

// maxValueTargets bounds the functions one call through a value is
// followed to: a settings handler's switch over 23 actions is followed into each.
const maxValueTargets = 64

// valueItems are the items of a call through a value that this package's
// assignments and returns lead to functions: a closure returned and
// called (mk()(x), f := mk(); f(x)), a literal kept in a local or a
// package variable of this package. resolve follows the value as it does
// a handler given to a router.
func (s *scanned) valueItems(call *ast.CallExpr) []paths.Item {
	ts, _ := s.handlers.Resolve(call.Fun)
	var out []paths.Item
	for _, t := range ts {
		if len(out) >= maxValueTargets {
			break
		}
		switch {
		case t.Lit != nil:
			out = append(out, paths.Item{Pos: call.Pos(), End: call.End(), Call: call, Lit: t.Lit, Name: s.view.litName(t.Lit)})
		case t.Func != nil && !t.Call:
			if it, ok := s.refItem(t.Func, call.Pos(), call.End(), call); ok {
				out = append(out, it)
			}
		}
	}
	return out
}

// slotItems are the items of a call through a func value read from slots
// (fun), or of such a value passed to a parameter its callee calls.
func (s *scanned) slotItems(fun ast.Expr, pos, end token.Pos, call *ast.CallExpr) []paths.Item {
	if s.view.thirdParty || s.slots == nil {
		return nil
	}
	name := types.ExprString(fun)
	if len(name) > 60 {
		name = "…" + name[len(name)-59:]
	}
	ctx := false
	if t := s.view.pass.TypesInfo.TypeOf(fun); t != nil {
		sig, _ := t.Underlying().(*types.Signature)
		ctx = sig != nil && rules.TakesContext(sig)
	}
	var out []paths.Item
	for _, k := range s.slots.Called(fun) {
		d := &paths.DynCall{Iface: k.Key, One: k.One, Chain: []string{name}, Sites: []string{s.view.site(pos)}, Ctx: ctx}
		if resolve.Generic(k.Key) {
			d.Sig = resolve.Sig(s.view.pass.TypesInfo.TypeOf(fun))
		}
		out = append(out, paths.Item{Pos: pos, End: end, Call: call, Dyn: d})
	}
	return out
}

// unfollowedItem is the site of the unresolved call through a kept func
// value that it leads to, or "".
func (r *runner) unfollowedItem(it paths.Item) string {
	switch {
	case it.Unfollowed != "":
		return it.Unfollowed
	case it.Ext != nil:
		return it.Ext.Unfollowed
	case it.Local != nil:
		if callee := r.byFunc[it.Local]; callee != nil && callee.Root == resolve.NotRoot {
			return callee.Unfollowed
		}
	case it.Lit != nil:
		if callee := r.litSummaries[it.Lit]; callee != nil {
			return callee.Unfollowed
		}
	}
	return ""
}
