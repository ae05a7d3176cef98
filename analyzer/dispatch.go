package analyzer

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// Interface dispatch: the items and conversions the join (internal/join)
// works on. What a package records here travels up as join's facts.

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
		Ctx: sig != nil && rules.TakesContext(sig)}
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
		if r.rep.Suppressed(s, it, rule.ID) {
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
			bf = s.WithMore(rules.Lockable).Fact()
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
	case dataflow.IsIOCall(r.cfg.IO, m, sig, key, r.pass.Pkg.Path()):
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
func (r *runner) recordConversions(files []*ast.File) []paths.Conv {
	info := r.pass.TypesInfo
	seen := map[string]bool{}
	var out []paths.Conv
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
				out = append(out, paths.Conv{From: from, Iface: ikey})
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
		var methods []paths.ConvMethod
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
				methods = append(methods, paths.ConvMethod{Name: fn.Name(), Fact: bf, Calls: calls})
			}
		}
		switch {
		case len(methods) > 0:
			out = append(out, paths.Conv{Type: name, Iface: ikey, Where: where, Methods: methods, Dep: r.thirdParty})
		case !seen["idle→"+ikey]:
			seen["idle→"+ikey] = true
			out = append(out, paths.Conv{Type: name, Iface: ikey, Where: where, Dep: r.thirdParty})
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
					where = paths.DisplayName(fn)
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

// applyPending applies the configuration and the suppressions recorded on
// the way to a dispatched finding.
func (r *pkgView) applyPending(pc paths.PendingCall, f *paths.Finding) *paths.Finding {
	g := r.rules.Apply(f, pc.Dyn.Lock, "", func(rule string) bool { return slices.Contains(pc.Dyn.Ignore, rule) })
	if g == nil || (g.Rule == "" && g.Lock == "") {
		return nil
	}
	return g
}

// walk returns resolve's dispatch walk over b, told what only the analyzer
// knows: what a paths.BlocksFact leads to, and which paths a caller's lock holds.
func (r *scanned) walk(b *paths.Bindings) *resolve.Walk[paths.BlocksFact, *paths.Finding] {
	return &resolve.Walk[paths.BlocksFact, *paths.Finding]{
		B:          b,
		MaxDepth:   join.MaxDepth,
		MaxTargets: maxSlotTargets,
		ArgDynWork: join.MaxArgDynWork,
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
				// judged by no call on the way here (dataflow.Owners): it
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
			if f.Lock == "" && rules.Lockable[f.Rule] {
				f.Lock = lock
			}
		},
	}
}

// pendingOf returns the pending calls of a root's items.
func (r *runner) pendingOf(s *paths.Summary) []paths.PendingCall {
	var out []paths.PendingCall
	for _, it := range s.Items {
		for _, d := range r.sealArgs(r.dynOf(s, it), 0) {
			out = append(out, paths.PendingCall{Root: s.Name, Site: r.site(it.Pos), EndSite: r.site(it.End), Dyn: d})
		}
	}
	return out
}
