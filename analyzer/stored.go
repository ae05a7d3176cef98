package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// Func values stored and called later.
//
// A router keeps a route's handler in a struct field and calls it when a
// request matches (rt.Action(e)); a hook keeps its middlewares' Func
// fields in a slice; a package variable holds a callback. The package
// that calls through the slot (resolve.Slot) rarely sees what is stored
// there, so this is dispatch again (dispatch.go), with slots for
// interfaces and stored functions for concrete types:
//
//   - a call through a slot on a request path is a paths.DynCall with the
//     slot's key as Iface and no Method; it travels up in paths.BlocksFact.Dyn
//     and, at a root, as a join.PendingFact;
//   - every func value the package stores into a slot (resolve.Stored) is
//     a conv with the stored function's fact as its only method, so the
//     join leads the call to every function stored there that the joining
//     package sees, at most maxSlotTargets per slot and package;
//   - a function that stores one of its parameters into a slot (Route,
//     GET, Bind) exports a resolve.StoresFact, so that its callers'
//     arguments are stores too.
//
// The chain says the call went through the slot: "rt.Action (via the
// func stored in router.Route.Action by app.Register) → app.listUsers".

// maxSlotTargets bounds the stored functions one package records per slot
// (and so the targets a call through the slot leads to from one package).
const maxSlotTargets = 256

// laterLits returns summaries for the func literals the package stores
// into slots or calls through a value (throughValue), that are no
// request roots of their own, so that their callers and the join can say
// what they do.
func (r *runner) laterLits(files []*ast.File, roots map[*ast.FuncLit]bool) []*paths.Summary {
	var lits []*ast.FuncLit
	for _, st := range r.stored.All() {
		// Stored as written, or returned by a function of the package
		// (Func: middleware()), or kept in a local first.
		ts, _ := r.handlers.Resolve(st.Value)
		for _, t := range ts {
			if t.Lit != nil {
				lits = append(lits, t.Lit)
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && r.throughValue(call) {
				ts, _ := r.handlers.Resolve(call.Fun)
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
		sig, _ := r.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		s := &paths.Summary{Root: resolve.NotRoot, Sig: sig, Pos: lit.Pos(), Name: r.litName(lit)}
		s.Items = r.collect(sig, lit.Body)
		r.litSummaries[lit] = s
		out = append(out, s)
	}
	return out
}

// litName names a literal in a chain: func literal at file.go:12.
func (r *pkgView) litName(lit *ast.FuncLit) string {
	p := r.pass.Fset.Position(lit.Pos())
	return "func literal at " + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// throughValue reports whether call calls a func value that is neither a
// declared function, nor an interface's method, nor a literal called as
// written: a local, a field, a package variable, an element, a result.
func (r *pkgView) throughValue(call *ast.CallExpr) bool {
	info := r.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); lit {
		return false
	}
	return typeutil.StaticCallee(info, call) == nil && interfaceMethod(info, call) == nil
}

// maxValueTargets bounds the functions one call through a value is
// followed to.
const maxValueTargets = 8

// valueItems are the items of a call through a value that this package's
// assignments and returns lead to functions: a closure returned and
// called (mk()(x), f := mk(); f(x)), a literal kept in a local or a
// package variable of this package. resolve follows the value as it does
// a handler given to a router.
func (r *scanned) valueItems(call *ast.CallExpr) []paths.Item {
	ts, _ := r.handlers.Resolve(call.Fun)
	var out []paths.Item
	for _, t := range ts {
		if len(out) >= maxValueTargets {
			break
		}
		switch {
		case t.Lit != nil:
			out = append(out, paths.Item{Pos: call.Pos(), End: call.End(), Call: call, Lit: t.Lit, Name: r.litName(t.Lit)})
		case t.Func != nil && !t.Call:
			if it, ok := r.refItem(t.Func, call.Pos(), call.End(), call); ok {
				out = append(out, it)
			}
		}
	}
	return out
}

// slotItems are the items of a call through a func value read from slots
// (fun), or of such a value passed to a parameter its callee calls.
func (r *scanned) slotItems(fun ast.Expr, pos, end token.Pos, call *ast.CallExpr) []paths.Item {
	if r.thirdParty || r.slots == nil {
		return nil
	}
	name := types.ExprString(fun)
	if len(name) > 60 {
		name = "…" + name[len(name)-59:]
	}
	ctx := false
	if t := r.pass.TypesInfo.TypeOf(fun); t != nil {
		sig, _ := t.Underlying().(*types.Signature)
		ctx = sig != nil && takesContext(sig)
	}
	var out []paths.Item
	for _, k := range r.slots.Called(fun) {
		d := &paths.DynCall{Iface: k.Key, One: k.One, Chain: []string{name}, Sites: []string{r.site(pos)}, Ctx: ctx}
		if resolve.Generic(k.Key) {
			d.Sig = resolve.Sig(r.pass.TypesInfo.TypeOf(fun))
		}
		out = append(out, paths.Item{Pos: pos, End: end, Call: call, Dyn: d})
	}
	return out
}

// recordStores turns the package's stores into convs for the join: each
// function stored into a slot (a function, a method value, a literal)
// with its fact. A function that is a request root is not followed, as
// with a static call: it reports its own findings.
//
// Every store also records where it is (a conv with only Slot and Site,
// whatever it stores, at most two places per slot): a call through a
// field of one struct value (paths.DynCall.One) is followed only when the
// program stores into that field at one place, and never for a field of
// the standard library's, whose places are not recorded.
func (r *runner) recordStores(rootLits map[*ast.FuncLit]bool) []paths.Conv {
	seen := map[string]bool{}
	count := map[string]int{}
	places := map[string]map[string]bool{}
	var out []paths.Conv
	for _, st := range r.stored.All() {
		site := r.site(st.Pos)
		// A parameter stored by its function is no place of its own:
		// its callers' arguments are (resolve.Stored).
		// The standard library's fields record no place (a test main's
		// testing.InternalTest.F would be one in every test package): a
		// call through one of one value is not followed (dispatch).
		if p := places[st.Slot]; len(p) < 2 && !p[site] && !r.stored.IsParam(st) && !knowledge.StdPath(resolve.SlotPkg(st.Slot)) {
			if p == nil {
				places[st.Slot] = map[string]bool{}
			}
			places[st.Slot][site] = true
			out = append(out, paths.Conv{Iface: st.Slot, Site: site})
		}
		ts, _ := r.handlers.Resolve(st.Value)
		for _, t := range ts {
			if resolve.Generic(st.Slot) && r.storedRoot(t, rootLits) {
				// A root is reported inside itself, so no binding; but
				// its type counts among those the field holds, or a call
				// in generic code would follow the other types' functions
				// as if they were the only ones (a shutdown hook's, once
				// the request hook's are roots by -roots).
				if sig := resolve.Sig(r.pass.TypesInfo.TypeOf(st.Value)); sig != "" && !seen[st.Slot+"|root|"+sig] {
					seen[st.Slot+"|root|"+sig] = true
					out = append(out, paths.Conv{Iface: st.Slot, Sig: sig, Root: true})
				}
				continue
			}
			var bf *paths.BlocksFact
			var name string
			switch {
			case t.Lit != nil:
				s := r.litSummaries[t.Lit]
				if s == nil || (s.Result == nil && len(s.Dyn) == 0) {
					continue
				}
				bf = &paths.BlocksFact{Dyn: s.Dyn}
				if s.Result != nil {
					bf = s.WithMore(rules.Lockable).Fact()
					bf.Dyn = s.Dyn
				}
				name = s.Name
			case t.Func != nil && !t.Call:
				if r.slotRoots.Ext(t.Func) {
					continue // a root at the store (join.FindSlotRoots)
				}
				bf = r.methodFact(t.Func)
				name = paths.DisplayName(t.Func)
			}
			if bf == nil || count[st.Slot] >= maxSlotTargets || seen[st.Slot+"|"+name] {
				continue
			}
			seen[st.Slot+"|"+name] = true
			count[st.Slot]++
			where := r.pass.Pkg.Name()
			if st.In != nil {
				where = paths.DisplayName(st.In)
			}
			c := paths.Conv{Type: name, Iface: st.Slot, Where: where, Methods: []paths.ConvMethod{{Name: "", Fact: bf}}}
			if resolve.Generic(st.Slot) {
				c.Sig = resolve.Sig(r.pass.TypesInfo.TypeOf(st.Value))
			}
			out = append(out, c)
		}
	}
	return out
}

// storedRoot reports whether the function t names is a request root:
// one of this package's literals or functions that run made a root, or
// another package's stored into a slot that a root below calls, or a
// root by signature or configuration.
func (r *runner) storedRoot(t resolve.Target, rootLits map[*ast.FuncLit]bool) bool {
	switch {
	case t.Lit != nil:
		return rootLits[t.Lit]
	case t.Func != nil && !t.Call:
		fn := t.Func.Origin()
		if s := r.byFunc[fn]; s != nil {
			return s.Root != resolve.NotRoot
		}
		return r.slotRoots.Ext(fn) || r.cfg.isRoot(fn)
	}
	return false
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
