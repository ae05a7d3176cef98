package join

import (
	"go/ast"

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
// there, so this is dispatch again (Conversions), with slots for
// interfaces and stored functions for concrete types:
//
//   - a call through a slot on a request path is a paths.DynCall with the
//     slot's key as Iface and no Method; it travels up in paths.BlocksFact.Dyn
//     and, at a root, as a PendingFact;
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

// Stores turns the package's stores into convs for the join: each
// function stored into a slot (a function, a method value, a literal)
// with its fact. A function that is a request root is not followed, as
// with a static call: it reports its own findings.
//
// Every store also records where it is (a conv with only Slot and Site,
// whatever it stores, at most two places per slot): a call through a
// field of one struct value (paths.DynCall.One) is followed only when the
// program stores into that field at one place, and never for a field of
// the standard library's, whose places are not recorded.
func (rec *Recorder) Stores(rootLits map[*ast.FuncLit]bool) []paths.Conv {
	seen := map[string]bool{}
	count := map[string]int{}
	places := map[string]map[string]bool{}
	var out []paths.Conv
	for _, st := range rec.Stored.All() {
		site := rec.Site(st.Pos)
		// A parameter stored by its function is no place of its own:
		// its callers' arguments are (resolve.Stored).
		// The standard library's fields record no place (a test main's
		// testing.InternalTest.F would be one in every test package): a
		// call through one of one value is not followed (dispatch).
		if p := places[st.Slot]; len(p) < 2 && !p[site] && !rec.Stored.IsParam(st) && !knowledge.StdPath(resolve.SlotPkg(st.Slot)) {
			if p == nil {
				places[st.Slot] = map[string]bool{}
			}
			places[st.Slot][site] = true
			out = append(out, paths.Conv{Iface: st.Slot, Site: site})
		}
		ts, _ := rec.Handlers.Resolve(st.Value)
		for _, t := range ts {
			if resolve.Generic(st.Slot) && rec.storedRoot(t, rootLits) {
				// A root is reported inside itself, so no binding; but
				// its type counts among those the field holds, or a call
				// in generic code would follow the other types' functions
				// as if they were the only ones (a shutdown hook's, once
				// the request hook's are roots by -roots).
				if sig := resolve.Sig(rec.Pass.TypesInfo.TypeOf(st.Value)); sig != "" && !seen[st.Slot+"|root|"+sig] {
					seen[st.Slot+"|root|"+sig] = true
					out = append(out, paths.Conv{Iface: st.Slot, Sig: sig, Root: true})
				}
				continue
			}
			var bf *paths.BlocksFact
			var name string
			switch {
			case t.Lit != nil:
				s := rec.Lit(t.Lit)
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
				if rec.SlotRoots.Ext(t.Func) {
					continue // a root at the store (FindSlotRoots)
				}
				bf = rec.Method(t.Func)
				name = paths.DisplayName(t.Func)
			}
			if bf == nil || count[st.Slot] >= maxSlotTargets || seen[st.Slot+"|"+name] {
				continue
			}
			seen[st.Slot+"|"+name] = true
			count[st.Slot]++
			where := rec.Pass.Pkg.Name()
			if st.In != nil {
				where = paths.DisplayName(st.In)
			}
			c := paths.Conv{Type: name, Iface: st.Slot, Where: where, Methods: []paths.ConvMethod{{Name: "", Fact: bf}}}
			if resolve.Generic(st.Slot) {
				c.Sig = resolve.Sig(rec.Pass.TypesInfo.TypeOf(st.Value))
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
func (rec *Recorder) storedRoot(t resolve.Target, rootLits map[*ast.FuncLit]bool) bool {
	switch {
	case t.Lit != nil:
		return rootLits[t.Lit]
	case t.Func != nil && !t.Call:
		fn := t.Func.Origin()
		if s := rec.Summary(fn); s != nil {
			return s.Root != resolve.NotRoot
		}
		return rec.SlotRoots.Ext(fn) || rec.Root(fn)
	}
	return false
}
