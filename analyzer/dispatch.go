package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// Interface dispatch: the items the join (internal/join) works on, and
// what it is handed to record the package's conversions and stores
// (recorder). What a package records travels up as join's facts.

// dynItem returns the dynamic call of an interface method call, or nil when
// dispatch does not follow it.
//
// Inside a dependency the call is kept with Dep set: a library's
// interfaces are mostly its own plumbing (drivers, connection pools, whose
// I/O the tables judge at the caller), which dispatch leaves alone by
// binding Dep calls only to the program's conversions, but some are the
// program's to implement (a session library's Store, bound to the
// service's Postgres store in main).
func (s *scanned) dynItem(call *ast.CallExpr) *paths.DynCall {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	selection := s.view.pass.TypesInfo.Selections[sel]
	if selection == nil || selection.Kind() != types.MethodVal {
		return nil
	}
	recv := dispatch.PromotedIface(selection)
	if recv == nil {
		return nil
	}
	it, _ := recv.Underlying().(*types.Interface)
	key, ok := dispatch.IfaceKey(recv)
	if !ok || (s.view.thirdParty && !dispatch.Implementable(recv, it)) {
		return nil
	}
	name := types.ExprString(sel)
	if len(name) > 60 {
		name = "…" + name[len(name)-59:]
	}
	sig, _ := s.view.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	d := &paths.DynCall{Iface: key, Method: sel.Sel.Name, Chain: []string{name}, Sites: []string{s.view.site(call.Pos())}, Dep: s.view.thirdParty,
		Ctx: sig != nil && rules.TakesContext(sig), Given: dataflow.CtxGiven(s.view.pass.TypesInfo, call)}
	d.SetRefs(s.funcArgs(call, sig))
	if _, ok := selection.Recv().Underlying().(*types.Interface); ok {
		d.Holds = s.holds.Receiver(sel.X)
	}
	return d
}

// dynOf returns the interface calls an item of s leads to, seen from s.
func (r *runner) dynOf(s *paths.Summary, it paths.Item) []paths.DynCall {
	var in []paths.DynCall
	switch {
	case it.Dyn != nil:
		in = []paths.DynCall{{}}
	case it.Ext != nil:
		in = it.Ext.Dyn
	case it.Local != nil:
		if callee := r.local(it); callee != nil && callee.Root == resolve.NotRoot {
			in = callee.Dyn
		}
	case it.Lit != nil:
		if callee := r.litSummaries[it.Lit]; callee != nil {
			in = callee.Dyn
		}
	}
	if len(in) == 0 {
		return nil
	}
	// The rules ignored here travel with the call: whether they hide
	// anything is known only where a binding is seen (report's Carried).
	var ignore []string
	for _, rule := range Rules {
		if r.view.rep.Carried(s, it, rule.ID) {
			ignore = append(ignore, rule.ID)
		}
	}
	if it.Dyn != nil {
		d := *it.Dyn
		if d.Lock == "" {
			d.Lock = it.Lock
		}
		d.Ignore = dispatch.Union(d.Ignore, ignore)
		return []paths.DynCall{d}
	}
	out := make([]paths.DynCall, 0, len(in))
	site := r.view.site(it.Pos)
	for _, d := range in {
		d.Lock = paths.ThroughCall(d.Lock, it.RecvOwn)
		out = append(out, d.Prepend(it.Name, site, it.Lock, ignore))
	}
	return out
}

// methodFact returns what calling method m of a concrete type does: its
// summary in this package, its fact from another, or, for the standard
// library, the tables' verdict as if it were called directly.
func (r *runner) methodFact(m *types.Func) *paths.BlocksFact {
	m = m.Origin()
	if m.Pkg() == nil {
		return nil
	}
	if s := r.byFunc[m]; s != nil {
		if s.Root != resolve.NotRoot || (s.Result == nil && len(s.Dyn) == 0) {
			return nil
		}
		return s.Fact(rules.Lockable)
	}
	key := knowledge.Qualified(m, m.Pkg().Path())
	if r.view.cfg.Allow[key] {
		return nil
	}
	var f paths.BlocksFact
	if r.view.pass.ImportObjectFact(m, &f) {
		ext := r.scanned.dropMemory(&f)
		if len(ext.Chain) == 0 && len(ext.Dyn) == 0 {
			return nil // only Opaque: nothing to dispatch to
		}
		return ext
	}
	if !knowledge.StdPath(m.Pkg().Path()) {
		return nil
	}
	sig, _ := m.Type().(*types.Signature)
	switch rep, ok := r.view.cfg.Blocking[key]; {
	case ok:
		verb := rep.Verb
		if verb == "" {
			verb = "blocks without the request context"
		}
		return &paths.BlocksFact{Rule: "SIO001", Chain: []string{key}, Sites: []string{""}, Detail: verb, Hint: "use " + rep.Use}
	case r.view.cfg.Waits[key] != "":
		return &paths.BlocksFact{Rule: "SIO005", Chain: []string{key}, Sites: []string{""}, Detail: "waits with no way to cancel it", Hint: r.view.cfg.Waits[key]}
	case dataflow.IsIOCall(r.view.cfg.IO, m, sig, key, r.view.pass.Pkg.Path()):
		return &paths.BlocksFact{Chain: []string{key}, Sites: []string{""}}
	}
	return nil
}

// methodOpaque reports whether method m of a concrete type hands a context
// to a call the analysis cannot follow (paths.BlocksFact.Opaque), which
// methodFact, having no path to dispatch, leaves out.
func (r *runner) methodOpaque(m *types.Func) bool {
	m = m.Origin()
	if m.Pkg() == nil || r.view.cfg.Allow[knowledge.Qualified(m, m.Pkg().Path())] {
		return false
	}
	if s := r.byFunc[m]; s != nil {
		return s.Root == resolve.NotRoot && (s.Opaque || (s.MemOpaque && !r.scanned.memoryIdle()))
	}
	var f paths.BlocksFact
	return r.view.pass.ImportObjectFact(m, &f) && (f.Opaque || (f.OpaqueMemory && !r.scanned.memoryIdle()))
}

// recorder is what the join's recording (join.Recorder) is handed of
// the package: its pre-passes' stores and slot roots, its summaries, and
// what a method of a concrete type does (methodFact).
func (r *runner) recorder() *join.Recorder {
	return &join.Recorder{Pass: r.view.pass, Tests: r.view.cfg.Tests, ThirdParty: r.view.thirdParty, Stored: r.scanned.stored, Handlers: r.scanned.handlers, SlotRoots: r.scanned.slotRoots,
		Site:    r.view.site,
		Summary: func(fn *types.Func) *paths.Summary { return r.byFunc[fn] },
		Lit:     func(lit *ast.FuncLit) *paths.Summary { return r.litSummaries[lit] },
		LitName: r.view.litName,
		Method:  r.methodFact,
		Opaque:  r.methodOpaque,
		Calls:   r.scanned.sync.Params,
		Root:    r.view.cfg.isRoot,
		Holds:   r.scanned.holds,
	}
}

// walk is the dispatch walk over b (join.NewWalk), for the join and for
// SIO002's deferred candidates.
func (s *scanned) walk(b *paths.Bindings) *dispatch.Walk[paths.BlocksFact, *paths.Finding] {
	return join.NewWalk(b, s.memoryIdle, s.view.fromFact, s.view.sitePos)
}

// pendingOf returns the pending calls of a root's items.
func (r *runner) pendingOf(s *paths.Summary) []paths.PendingCall {
	rec := r.recorder()
	var out []paths.PendingCall
	for _, it := range s.Items {
		for _, d := range rec.SealArgs(r.dynOf(s, it)) {
			out = append(out, paths.PendingCall{Root: s.Name, Site: r.view.site(it.Pos), EndSite: r.view.site(it.End), Dyn: d})
		}
	}
	return out
}
