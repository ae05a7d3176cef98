package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Interface dispatch.
//
// A handler usually reaches its database or storage through an interface
// (a field of type UserStore, a factory returning Storage) whose concrete
// type is wired in main or a router package that the handler's package does
// not import. Analysis runs bottom-up, one package at a time, so the
// handler's package cannot know the binding. Three package facts carry the
// two halves upwards until one package sees both:
//
//   - pendingFact: calls through an interface method made on a request path
//     (at a root's call, with the chain that leads to the interface call);
//   - convFact: the program's conversions of a concrete type to an
//     interface (assignment, composite-literal field, argument, return,
//     explicit conversion), each with the concrete methods that block;
//   - joinedFact: the (root call, rule) pairs already reported, so that a
//     package above the one that joined a pair does not report it again.
//
// Every package joins the pending calls it sees (its own and its
// dependencies') with the conversions it sees and reports what is new, at
// the handler's call. A concrete type counts for an interface I.M when it
// was converted to I (the program really binds it there), or to an
// interface whose values are
// later converted to I (edges between interfaces are recorded too).
// Interfaces are named by import path and type name, because a fact cannot
// hold a types.Type from another package.

// The analyzer's instances of resolve's dispatch model: what a bound
// method or a func argument does is a paths.BlocksFact.
type (
	dynArg      = resolve.DynArg[paths.BlocksFact]
	pendingCall = resolve.PendingCall[paths.BlocksFact]
	conv        = resolve.Conv[paths.BlocksFact]
	convMethod  = resolve.ConvMethod[paths.BlocksFact]
	bindings    = resolve.Bindings[paths.BlocksFact]
)

type pendingFact struct {
	Calls []pendingCall
	// Dropped are SIO002 candidates at roots' calls whose callee's only
	// evidence of I/O is interface calls (rule_dropped.go): decided at
	// the join, where the bindings are seen.
	Dropped []droppedCall
}

func (*pendingFact) AFact() {}
func (f *pendingFact) String() string {
	if len(f.Dropped) > 0 {
		return "pending(" + strconv.Itoa(len(f.Calls)) + ", dropped " + strconv.Itoa(len(f.Dropped)) + ")"
	}
	return "pending(" + strconv.Itoa(len(f.Calls)) + ")"
}

type convFact struct{ Convs []conv }

func (*convFact) AFact()           {}
func (f *convFact) String() string { return "convs(" + strconv.Itoa(len(f.Convs)) + ")" }

type joinedFact struct{ Keys []string }

func (*joinedFact) AFact()           {}
func (f *joinedFact) String() string { return "joined(" + strconv.Itoa(len(f.Keys)) + ")" }

// maxDispatchDepth bounds how many interface hops a join follows (handler
// → service interface → repository interface → driver interface).
//
// maxDispatchWork bounds the bindings one pending call visits in all, over
// every hop: a call through a slot with hundreds of stored functions, each
// reaching a hook chain through the same slot again, would otherwise
// multiply at every hop.
const (
	maxDispatchDepth = 4
	maxDispatchWork  = 1 << 15
	// maxArgWork bounds the bindings that the func arguments of one
	// pending call's interface calls visit in all (dyncallbacks.go), and
	// maxArgDynWork those of one interface call inside such an argument.
	maxArgWork    = 1 << 12
	maxArgDynWork = 1 << 9
)

// dynItem returns the dynamic call of an interface method call, or nil when
// dispatch does not follow it.
//
// Inside a dependency the call is kept with Dep set: a library's
// interfaces are mostly its own plumbing (drivers, connection pools, whose
// I/O the tables judge at the caller), which dispatch leaves alone by
// binding Dep calls only to the program's conversions, but some are the
// program's to implement (a session library's Store, bound to the
// service's Postgres store in main).
func (r *scanned) dynItem(call *ast.CallExpr) *paths.DynCall {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	selection := r.pass.TypesInfo.Selections[sel]
	if selection == nil || selection.Kind() != types.MethodVal {
		return nil
	}
	recv := resolve.PromotedIface(selection)
	if recv == nil {
		return nil
	}
	it, _ := recv.Underlying().(*types.Interface)
	key, ok := resolve.IfaceKey(recv)
	if !ok || (r.thirdParty && !resolve.Implementable(recv, it)) {
		return nil
	}
	name := types.ExprString(sel)
	if len(name) > 60 {
		name = "…" + name[len(name)-59:]
	}
	sig, _ := r.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	d := &paths.DynCall{Iface: key, Method: sel.Sel.Name, Chain: []string{name}, Sites: []string{r.site(call.Pos())}, Dep: r.thirdParty,
		Ctx: sig != nil && takesContext(sig)}
	d.SetRefs(r.funcArgs(call, sig))
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
		if callee := r.byFunc[it.Local]; callee != nil && callee.Root == resolve.NotRoot {
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
	// The rules ignored here travel with the call. Whether they hide
	// anything is only known where the binding is seen, so they count as
	// used (never reported stale).
	var ignore []string
	for _, rule := range Rules {
		if r.rep.suppressed(s, it, rule.ID) {
			ignore = append(ignore, rule.ID)
		}
	}
	if it.Dyn != nil {
		d := *it.Dyn
		if d.Lock == "" {
			d.Lock = it.Lock
		}
		d.Ignore = resolve.Union(d.Ignore, ignore)
		return []paths.DynCall{d}
	}
	out := make([]paths.DynCall, 0, len(in))
	site := r.site(it.Pos)
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
		bf := &paths.BlocksFact{Dyn: s.Dyn}
		if s.Result != nil {
			bf = s.WithMore(lockable).Fact()
			bf.Dyn = s.Dyn
		}
		return bf
	}
	key := knowledge.Qualified(m, m.Pkg().Path())
	if r.cfg.Allow[key] {
		return nil
	}
	var f paths.BlocksFact
	if r.pass.ImportObjectFact(m, &f) {
		ext := r.dropMemory(&f)
		if len(ext.Chain) == 0 && len(ext.Dyn) == 0 {
			return nil // only Opaque: nothing to dispatch to
		}
		return ext
	}
	if !knowledge.StdPath(m.Pkg().Path()) {
		return nil
	}
	sig, _ := m.Type().(*types.Signature)
	switch rep, ok := r.cfg.Blocking[key]; {
	case ok:
		verb := rep.Verb
		if verb == "" {
			verb = "blocks without the request context"
		}
		return &paths.BlocksFact{Rule: "SIO001", Chain: []string{key}, Sites: []string{""}, Detail: verb, Hint: "use " + rep.Use}
	case r.cfg.Waits[key] != "":
		return &paths.BlocksFact{Rule: "SIO005", Chain: []string{key}, Sites: []string{""}, Detail: "waits with no way to cancel it", Hint: r.cfg.Waits[key]}
	case isIOCall(r.cfg.IO, m, sig, key, r.pass.Pkg.Path()):
		return &paths.BlocksFact{Chain: []string{key}, Sites: []string{""}}
	}
	return nil
}

// methodOpaque reports whether method m of a concrete type hands a context
// to a call the analysis cannot follow (paths.BlocksFact.Opaque), which
// methodFact, having no path to dispatch, leaves out.
func (r *runner) methodOpaque(m *types.Func) bool {
	m = m.Origin()
	if m.Pkg() == nil || r.cfg.Allow[knowledge.Qualified(m, m.Pkg().Path())] {
		return false
	}
	if s := r.byFunc[m]; s != nil {
		return s.Root == resolve.NotRoot && (s.Opaque || (s.MemOpaque && !r.memoryIdle()))
	}
	var f paths.BlocksFact
	return r.pass.ImportObjectFact(m, &f) && (f.Opaque || (f.OpaqueMemory && !r.memoryIdle()))
}

// recordConversions finds the conversions of concrete types to followed
// interfaces in files, after the package's summaries are known.
func (r *runner) recordConversions(files []*ast.File) []conv {
	info := r.pass.TypesInfo
	seen := map[string]bool{}
	var out []conv
	var addType func(t, dst types.Type, where string)
	add := func(src ast.Expr, dst types.Type, where string) {
		if src == nil {
			return
		}
		if tv, ok := info.Types[src]; ok && tv.IsNil() {
			return
		}
		addType(info.TypeOf(src), dst, where)
	}
	addType = func(t, dst types.Type, where string) {
		if dst == nil || t == nil {
			return
		}
		if _, ok := dst.Underlying().(*types.Interface); !ok {
			return
		}
		ikey, ok := resolve.IfaceKey(dst)
		if !ok {
			return
		}
		if _, ok := t.Underlying().(*types.Interface); ok {
			// Interface to interface: an edge that the concrete types
			// converted to the source interface travel along.
			if from, ok := resolve.IfaceKey(t); ok && from != ikey && !seen[from+"→"+ikey] {
				seen[from+"→"+ikey] = true
				out = append(out, conv{From: from, Iface: ikey})
			}
			return
		}
		if !r.cfg.Tests && testDouble(r.pass.Pkg, t) {
			return // a test double is no binding of the server's
		}
		name := types.TypeString(t, func(p *types.Package) string { return p.Name() })
		k := name + "→" + ikey
		if seen[k] {
			return
		}
		seen[k] = true
		var methods []convMethod
		ms := types.NewMethodSet(t)
		for i := range ms.Len() {
			fn, _ := ms.At(i).Obj().(*types.Func)
			if fn == nil {
				continue
			}
			bf, calls := r.methodFact(fn), r.sync.Params(fn)
			if bf == nil && len(calls) > 0 {
				bf = &paths.BlocksFact{}
			}
			if bf == nil && r.methodOpaque(fn) {
				// It hands its context to something unseen: no
				// path to dispatch, but evidence for SIO002's
				// deferred candidates (bindings.opaque).
				bf = &paths.BlocksFact{Opaque: true}
			}
			if bf != nil {
				methods = append(methods, convMethod{Name: fn.Name(), Fact: bf, Calls: calls})
			}
		}
		switch {
		case len(methods) > 0:
			out = append(out, conv{Type: name, Iface: ikey, Where: where, Methods: methods, Dep: r.thirdParty})
		case !seen["idle→"+ikey]:
			seen["idle→"+ikey] = true
			out = append(out, conv{Type: name, Iface: ikey, Where: where, Dep: r.thirdParty})
		}
	}
	var walk func(n ast.Node, results *types.Tuple, where string)
	walk = func(n ast.Node, results *types.Tuple, where string) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				sig, _ := info.TypeOf(n).(*types.Signature)
				if sig != nil {
					walk(n.Body, sig.Results(), where)
				}
				return false
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						add(n.Rhs[i], info.TypeOf(n.Lhs[i]), where)
					}
				} else if tuple, ok := info.TypeOf(n.Rhs[0]).(*types.Tuple); ok && len(n.Rhs) == 1 && tuple.Len() == len(n.Lhs) {
					for i := range n.Lhs {
						addType(tuple.At(i).Type(), info.TypeOf(n.Lhs[i]), where)
					}
				}
			case *ast.ValueSpec:
				if n.Type != nil && len(n.Values) == len(n.Names) {
					for _, v := range n.Values {
						add(v, info.TypeOf(n.Type), where)
					}
				}
			case *ast.ReturnStmt:
				switch {
				case results == nil:
				case len(n.Results) == results.Len():
					for i, e := range n.Results {
						add(e, results.At(i).Type(), where)
					}
				case len(n.Results) == 1 && results.Len() > 1:
					// return postgres.New(path): a tuple into the results.
					if tuple, ok := info.TypeOf(n.Results[0]).(*types.Tuple); ok && tuple.Len() == results.Len() {
						for i := range tuple.Len() {
							addType(tuple.At(i).Type(), results.At(i).Type(), where)
						}
					}
				}
			case *ast.CompositeLit:
				resolve.CompositeConversions(info, n, func(e ast.Expr, t types.Type) { add(e, t, where) })
			case *ast.CallExpr:
				tv, ok := info.Types[n.Fun]
				if ok && tv.IsType() && len(n.Args) == 1 {
					add(n.Args[0], tv.Type, where)
					return true
				}
				if !ok || tv.Type == nil {
					return true
				}
				sig, _ := tv.Type.Underlying().(*types.Signature)
				if sig == nil {
					return true
				}
				for i, a := range n.Args {
					var pt types.Type
					switch {
					case sig.Variadic() && i >= sig.Params().Len()-1:
						if n.Ellipsis.IsValid() {
							continue
						}
						if s, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok {
							pt = s.Elem()
						}
					case i < sig.Params().Len():
						pt = sig.Params().At(i).Type()
					}
					add(a, pt, where)
				}
			}
			return true
		})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil {
					continue
				}
				fn, _ := info.Defs[d.Name].(*types.Func)
				where := r.pass.Pkg.Name() + "." + d.Name.Name
				var results *types.Tuple
				if fn != nil {
					where = displayName(fn)
					results = fn.Type().(*types.Signature).Results()
				}
				walk(d.Body, results, where)
			default:
				walk(d, nil, r.pass.Pkg.Name())
			}
		}
	}
	return out
}

// testDouble reports whether a conversion of t recorded in pkg binds a
// test double: the conversion is made in a test-support package (a mock
// handing itself to a callback, tests.(*MockDataStore).WithTx in
// navidrome), or t is declared in one or named as a double (MockX,
// FakeX, StubX). Such a package is compiled into the binary only because
// the tests import it; its types are never bound in the server, and
// following them put a mock's mutex among the locks held on a request
// path. Config.Tests, which analyses tests, keeps them.
func testDouble(pkg *types.Package, t types.Type) bool {
	if knowledge.TestSupport(pkg.Path()) {
		return true
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return knowledge.TestSupport(n.Obj().Pkg().Path()) || knowledge.TestDouble(n.Obj().Name())
}

// joinInput is what a package's join works on: its own pending calls,
// deferred candidates and conversions with those of every package below
// it, and what was reported already (joinedFact keys, and the static
// paths this package reported at its roots' calls).
type joinInput struct {
	pending  []pendingCall
	dropped  []droppedCall
	convs    []conv
	reported map[string]bool
	// keys are the reported keys this package adds for the packages
	// above it (its joinedFact).
	keys []string
}

// gather exports this package's pending calls and conversions and
// reads those of the packages below it, in a fixed order.
func (r *pkgView) gather(pending []pendingCall, dropped []droppedCall, convs []conv) *joinInput {
	if len(pending) > 0 || len(dropped) > 0 {
		r.pass.ExportPackageFact(&pendingFact{Calls: pending, Dropped: dropped})
	}
	if len(convs) > 0 {
		r.pass.ExportPackageFact(&convFact{Convs: convs})
	}
	in := &joinInput{pending: pending, dropped: dropped, convs: convs, reported: map[string]bool{}}
	// The static paths this package reported at its roots' calls count
	// as reported, here and (for calls with pending dispatch) above.
	pendingSites := map[string]bool{}
	for _, pc := range pending {
		pendingSites[pc.Site] = true
	}
	for k := range r.rep.emitted {
		in.reported[k] = true
		if site, _, _ := strings.Cut(k, "|"); pendingSites[site] {
			in.keys = append(in.keys, k)
		}
	}
	sort.Strings(in.keys)
	// Drivers hand the package facts over in map order. The order decides
	// which of several bindings to one blocking operation leads a
	// diagnostic (its "bound to … in …" label) and the order of reports,
	// so it is fixed: by import path (r.below), after this package's own.
	for _, pf := range r.below {
		switch f := pf.Fact.(type) {
		case *convFact:
			in.convs = append(in.convs, f.Convs...)
		case *pendingFact:
			in.pending = append(in.pending, f.Calls...)
			in.dropped = append(in.dropped, f.Dropped...)
		case *joinedFact:
			for _, k := range f.Keys {
				in.reported[k] = true
			}
		}
	}
	return in
}

// join resolves the pending interface calls this package sees against the
// conversions it sees, reports what no dependency reported, and exports
// what this package adds for the packages above it. dropped are this
// package's deferred SIO002 candidates (decideDropped).
//
// It returns the calls through a func field that the walk followed to
// none of the functions stored there, for the roots report.
func (r *scanned) join(pending []pendingCall, dropped []droppedCall, convs []conv) []seen.Unfollowed {
	in := r.gather(pending, dropped, convs)
	if (len(in.pending) == 0 || len(in.convs) == 0) && len(in.dropped) == 0 {
		if len(in.keys) > 0 {
			r.pass.ExportPackageFact(&joinedFact{Keys: in.keys})
		}
		return nil
	}
	b := resolve.Index(in.convs)
	w := r.walk(b)
	// The pending calls at one root's call (its callee makes several
	// interface calls) are reported together, as a static path is: one
	// diagnostic per rule, with the rule's other operations listed.
	var sites []string
	atSite := map[string][]pendingCall{}
	for _, pc := range in.pending {
		if atSite[pc.Site] == nil {
			sites = append(sites, pc.Site)
		}
		atSite[pc.Site] = append(atSite[pc.Site], pc)
	}
	for _, site := range sites {
		pcs := atSite[site]
		pc := pcs[0] // root and end are the same for every call at the site
		var fs []*paths.Finding
		for _, p := range pcs {
			b.Start(maxDispatchWork, maxArgWork)
			for _, f := range w.Dispatch(p.Dyn) {
				if g := r.applyPending(p, f); g != nil {
					fs = append(fs, g)
				}
			}
		}
		// The highest-ranked path of a rule leads its diagnostic; the
		// rule's other blocking operations are listed after it (report).
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Better(fs[j]) })
		// A (call, rule, blocking operation) is reported once: a package
		// that sees more bindings than the one below it adds only the
		// operations that were not shown yet.
		var fresh []*paths.Finding
		for _, f := range fs {
			g := *f
			term := f.Terminal()
			if g.Rule != "" && in.reported[pc.Site+"|"+g.Rule+"|"+term] {
				g.Rule = ""
			}
			if g.Lock != "" && in.reported[pc.Site+"|SIO003|"+term] {
				g.Lock = ""
			}
			if g.Rule == "" && g.Lock == "" {
				continue
			}
			fresh = append(fresh, &g)
			for _, k := range []string{g.Rule, "SIO003"} {
				if k == "" || (k == "SIO003" && g.Lock == "") {
					continue
				}
				key := pc.Site + "|" + k + "|" + term
				if !in.reported[key] {
					in.reported[key] = true
					in.keys = append(in.keys, key)
				}
			}
		}
		if len(fresh) == 0 {
			continue
		}
		pos := r.sitePos(pc.Site)
		if !pos.IsValid() {
			continue
		}
		end := r.sitePos(pc.EndSite)
		if !end.IsValid() || end < pos {
			end = token.NoPos
		}
		r.rep.report(&paths.Summary{Name: pc.Root}, paths.Item{Pos: pos, End: end, Merged: true}, fresh)
	}
	for _, dc := range in.dropped {
		if key, ok := r.decideDropped(dc, b, in.reported); ok {
			in.reported[key] = true
			in.keys = append(in.keys, key)
		}
	}
	if len(in.keys) > 0 {
		r.pass.ExportPackageFact(&joinedFact{Keys: in.keys})
	}
	var unfollowed []seen.Unfollowed
	for site, u := range b.Unfollowed {
		var patterns []string
		for _, t := range u.Types {
			if p, ok := rootPattern(t); ok {
				patterns = append(patterns, p)
			}
		}
		unfollowed = append(unfollowed, seen.Unfollowed{Pos: site, Slot: u.Slot, RootPatterns: patterns})
	}
	sort.Slice(unfollowed, func(i, j int) bool { return unfollowed[i].Pos < unfollowed[j].Pos })
	return unfollowed
}

// applyPending applies the configuration and the suppressions recorded on
// the way to a dispatched finding.
func (r *pkgView) applyPending(pc pendingCall, f *paths.Finding) *paths.Finding {
	g := r.applyRules(f, pc.Dyn.Lock, "", func(rule string) bool { return slices.Contains(pc.Dyn.Ignore, rule) })
	if g == nil || (g.Rule == "" && g.Lock == "") {
		return nil
	}
	return g
}

// walk returns resolve's dispatch walk over b, told what only the analyzer
// knows: what a paths.BlocksFact leads to, and which paths a caller's lock holds.
func (r *scanned) walk(b *bindings) *resolve.Walk[paths.BlocksFact, *paths.Finding] {
	return &resolve.Walk[paths.BlocksFact, *paths.Finding]{
		B:          b,
		MaxDepth:   maxDispatchDepth,
		MaxTargets: maxSlotTargets,
		ArgDynWork: maxArgDynWork,
		Opaque: func(bf *paths.BlocksFact) bool {
			return bf.Opaque || (bf.OpaqueMemory && !r.memoryIdle())
		},
		Dyn: func(bf *paths.BlocksFact) []paths.DynCall { return bf.Dyn },
		Paths: func(bf *paths.BlocksFact, prefix, sites []string) []*paths.Finding {
			if len(bf.Chain) == 0 {
				return nil
			}
			f := r.fromFact(bf)
			for i := range bf.More {
				f.More = append(f.More, r.fromFact(&bf.More[i]))
			}
			var out []*paths.Finding
			for _, p := range f.All() {
				g := *p
				// A lock the bound method takes on its own receiver is
				// judged by no call on the way here (lockowner.go): it
				// counts as shared.
				g.Lock = paths.LockName(p.Lock)
				if p.Ref {
					out = append(out, &g) // names its operation only
					continue
				}
				g.Chain = append(append([]string(nil), prefix...), p.Chain...)
				g.Sites = append(append([]string(nil), sites...), p.Sites...)
				g.Poses = nil
				for _, s := range g.Sites {
					g.Poses = append(g.Poses, r.sitePos(s))
				}
				out = append(out, &g)
			}
			return out
		},
		Held: func(f *paths.Finding, lock string) {
			if f.Lock == "" && lockable[f.Rule] {
				f.Lock = lock
			}
		},
	}
}

// pendingOf returns the pending calls of a root's items.
func (r *runner) pendingOf(s *paths.Summary) []pendingCall {
	var out []pendingCall
	for _, it := range s.Items {
		for _, d := range r.sealArgs(r.dynOf(s, it), 0) {
			out = append(out, pendingCall{Root: s.Name, Site: r.site(it.Pos), EndSite: r.site(it.End), Dyn: d})
		}
	}
	return out
}
