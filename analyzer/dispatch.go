package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
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

// dynCall is a call through an interface method on some function's path,
// seen from that function: Chain and Sites lead from the function to the
// interface call, whose own entry is last.
type dynCall struct {
	Iface  string // import path and name of the interface: example.com/api.UserStore
	Method string // method name
	Chain  []string
	Sites  []string
	Lock   string   // a mutex held on the way, as in blocksFact.Lock
	Ignore []string // rules suppressed on the way (//syncio:ignore)
	// One marks a call through a field of one struct value (stored.go,
	// resolve.Call.One).
	One bool
	// Dep marks a call made inside a dependency (a session library's
	// store.Get): it is dispatched only to the concrete types the program
	// itself converts, never to the dependency's own (see dispatch).
	Dep bool
	// Args are the call's func arguments that do something (dyncallbacks.go):
	// dispatch follows one into a binding that calls its parameter on the
	// spot. refs are the same before the package's summaries are final.
	Args []dynArg
	refs []argRef
	// Ctx marks a call of a method that takes a context.Context: a
	// context handed to the function that makes it may reach the
	// binding (SIO002's deferred decision, rule_dropped.go).
	Ctx bool
}

func (d *dynCall) key() string {
	return d.Iface + "." + d.Method + "@" + d.Sites[len(d.Sites)-1]
}

// prepend returns d seen from a caller whose call at site leads to it.
func (d dynCall) prepend(name, site, lock string, ignore []string) dynCall {
	d.Chain = append([]string{name}, d.Chain...)
	d.Sites = append([]string{site}, d.Sites...)
	if d.Lock == "" {
		d.Lock = lock
	}
	d.Ignore = mergeRules(d.Ignore, ignore)
	return d
}

func mergeRules(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := slices.Clone(a)
	for _, r := range b {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// pendingCall is a root's call that leads to an interface call.
type pendingCall struct {
	Root    string // the root's display name
	Site    string // the root's call, "file:line:col"
	EndSite string
	Dyn     dynCall // seen from the root's callee (Chain[0] is the callee)
}

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

// conv is one concrete type converted to one interface.
type conv struct {
	From    string       // for an interface converted to Iface: that interface
	Type    string       // display name of the concrete type: *store.SQL
	Iface   string       // the interface it was converted to
	Where   string       // the function (or package) that converts
	Methods []convMethod // the concrete type's methods that block or lead to interface calls, by name
	// Site is where a func is stored into the slot Iface (stored.go); a
	// conv with a Site and no Methods only says that something is stored
	// there.
	Site string
	// Dep marks a conversion made inside a dependency (a driver binding
	// its own connection type): no interface call made inside a
	// dependency (dynCall.Dep) is dispatched to it.
	Dep bool
	// A conv with neither From, Methods nor Site says only that the
	// package binds Iface to a type none of whose methods does anything
	// (an in-memory cache), once per interface and package: SIO002's
	// deferred candidates tell an idle binding from none (bound).
}

// convMethod is a slice entry, not a map: facts must encode
// deterministically.
type convMethod struct {
	Name string
	Fact *blocksFact
	// Calls are the parameters the method calls before it returns (its
	// CallsFact): the func arguments an interface call gives them run on
	// the caller's path (dynCall.Args).
	Calls []int
}

func (c *conv) method(name string) *convMethod {
	for i := range c.Methods {
		if c.Methods[i].Name == name {
			return &c.Methods[i]
		}
	}
	return nil
}

type convFact struct{ Convs []conv }

func (*convFact) AFact()           {}
func (f *convFact) String() string { return "convs(" + strconv.Itoa(len(f.Convs)) + ")" }

type joinedFact struct{ Keys []string }

func (*joinedFact) AFact()           {}
func (f *joinedFact) String() string { return "joined(" + strconv.Itoa(len(f.Keys)) + ")" }

// maxDyn bounds the interface calls one function summary carries;
// maxDepDyn, apart, those made inside dependencies (dynCall.Dep), so that
// a library's calls never crowd out the program's own. maxDispatchDepth
// bounds how many interface hops a join follows (handler → service
// interface → repository interface → driver interface).
//
// maxDispatchWork bounds the bindings one pending call visits in all, over
// every hop: a call through a slot with hundreds of stored functions, each
// reaching a hook chain through the same slot again, would otherwise
// multiply at every hop.
const (
	maxDyn           = 24
	maxDepDyn        = 8
	maxDispatchDepth = 4
	maxDispatchWork  = 1 << 15
	// maxArgWork bounds the bindings that the func arguments of one
	// pending call's interface calls visit in all (dyncallbacks.go), and
	// maxArgDynWork those of one interface call inside such an argument.
	maxArgWork    = 1 << 12
	maxArgDynWork = 1 << 9
)

// ifaceKey returns the key of a named interface type that dispatch
// follows (see followedIface) and that has methods.
func ifaceKey(t types.Type) (string, bool) {
	n, isNamed := types.Unalias(t).(*types.Named)
	if !isNamed || n.Obj() == nil || n.Obj().Pkg() == nil {
		return "", false
	}
	it, isIface := n.Underlying().(*types.Interface)
	if !isIface || it.NumMethods() == 0 || !followedIface(n.Obj().Pkg().Path()) {
		return "", false
	}
	// Generated gRPC stream interfaces embed grpc.ServerStream: the
	// framework's plumbing, like its request objects.
	for i := range it.NumMethods() {
		if it.Method(i).Name() == "SendMsg" || it.Method(i).Name() == "RecvMsg" {
			return "", false
		}
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name(), true
}

// followedIface reports whether dispatch follows the interfaces of a
// package: not the standard library's (io.Writer, http.ResponseWriter and
// their kin are plumbing), nor the frameworks' request objects (echo.Context,
// fiber.Ctx) and loggers, which the tables already judge.
func followedIface(path string) bool {
	if knowledge.StdPath(path) {
		return false
	}
	for _, p := range []string{pathGin, pathEcho, pathEchoV5, pathFiberV2, pathFiberV3, "google.golang.org/grpc", "google.golang.org/protobuf"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return false
		}
	}
	return !knowledge.Observability(path)
}

// dynItem returns the dynamic call of an interface method call, or nil when
// dispatch does not follow it.
//
// Inside a dependency the call is kept with Dep set: a library's
// interfaces are mostly its own plumbing (drivers, connection pools, whose
// I/O the tables judge at the caller), which dispatch leaves alone by
// binding Dep calls only to the program's conversions, but some are the
// program's to implement (a session library's Store, bound to the
// service's Postgres store in main).
func (r *runner) dynItem(call *ast.CallExpr) *dynCall {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	selection := r.pass.TypesInfo.Selections[sel]
	if selection == nil || selection.Kind() != types.MethodVal {
		return nil
	}
	recv := promotedIface(selection)
	if recv == nil {
		return nil
	}
	it, _ := recv.Underlying().(*types.Interface)
	key, ok := ifaceKey(recv)
	if !ok || (r.thirdParty && !implementable(recv, it)) {
		return nil
	}
	name := types.ExprString(sel)
	if len(name) > 60 {
		name = "…" + name[len(name)-59:]
	}
	sig, _ := r.pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	return &dynCall{Iface: key, Method: sel.Sel.Name, Chain: []string{name}, Sites: []string{r.site(call.Pos())}, Dep: r.thirdParty,
		refs: r.funcArgs(call, sig), Ctx: sig != nil && takesContext(sig)}
}

// promotedIface returns the interface type a method call goes through:
// the receiver's type when it is an interface, or the embedded interface
// field the method is promoted from (c.Call for a struct embedding the
// interface caller is c.caller.Call), or nil for a concrete method.
func promotedIface(sel *types.Selection) types.Type {
	t := sel.Recv()
	if _, ok := t.Underlying().(*types.Interface); ok {
		return t
	}
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		t = st.Field(i).Type()
		if _, ok := t.Underlying().(*types.Interface); ok {
			// The rest of the path is inside the interface's own
			// method set (an interface embedding another).
			return t
		}
	}
	return nil
}

// implementable reports whether the program can bind its own types to a
// dependency's interface: the interface is exported and none of its
// methods is. An interface with an unexported method (goja's Value) is
// implemented only by its own package's types, and the program cannot
// name an unexported one (cast's float64Provider, asserted from any), so
// it records no conversion to it; keeping a dependency's calls through
// them cost a fact for most functions of such a library (pocketbase's
// JavaScript VM: three facts where there was one).
func implementable(t types.Type, it *types.Interface) bool {
	if n, ok := types.Unalias(t).(*types.Named); !ok || !n.Obj().Exported() {
		return false
	}
	for i := range it.NumMethods() {
		if !it.Method(i).Exported() {
			return false
		}
	}
	return true
}

// ownDyn reports whether ds holds an interface call made outside the
// dependencies. Calls made inside one (dynCall.Dep) are no evidence of
// I/O for SIO002's idle callees and joins: the dependency's own
// implementations are not followed, and before they were kept a
// dependency's interface calls counted for nothing.
func ownDyn(ds []dynCall) bool {
	for i := range ds {
		if !ds[i].Dep {
			return true
		}
	}
	return false
}

// dynOf returns the interface calls an item of s leads to, seen from s.
func (r *runner) dynOf(s *fnSummary, it item) []dynCall {
	var in []dynCall
	switch {
	case it.dyn != nil:
		in = []dynCall{{}}
	case it.ext != nil:
		in = it.ext.Dyn
	case it.local != nil:
		if callee := r.byFunc[it.local]; callee != nil && callee.root == notRoot {
			in = callee.dyn
		}
	case it.lit != nil:
		if callee := r.litSummaries[it.lit]; callee != nil {
			in = callee.dyn
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
		if r.suppressed(s, it, rule.ID) {
			ignore = append(ignore, rule.ID)
		}
	}
	if it.dyn != nil {
		d := *it.dyn
		if d.Lock == "" {
			d.Lock = it.lock
		}
		d.Ignore = mergeRules(d.Ignore, ignore)
		return []dynCall{d}
	}
	out := make([]dynCall, 0, len(in))
	site := r.site(it.pos)
	for _, d := range in {
		out = append(out, d.prepend(it.name, site, it.lock, ignore))
	}
	return out
}

// addDyn merges ds into s.dyn, keeping the first path to each interface
// call; it reports whether anything was added.
func (s *fnSummary) addDyn(ds []dynCall) bool {
	changed := false
	own, dep := 0, 0
	for i := range s.dyn {
		if s.dyn[i].Dep {
			dep++
		} else {
			own++
		}
	}
	for _, d := range ds {
		if (d.Dep && dep >= maxDepDyn) || (!d.Dep && own >= maxDyn) {
			continue
		}
		k := d.key()
		dup := false
		for i := range s.dyn {
			if s.dyn[i].key() == k {
				dup = true
				break
			}
		}
		if !dup {
			s.dyn = append(s.dyn, d)
			changed = true
			if d.Dep {
				dep++
			} else {
				own++
			}
		}
	}
	return changed
}

// methodFact returns what calling method m of a concrete type does: its
// summary in this package, its fact from another, or, for the standard
// library, the tables' verdict as if it were called directly.
func (r *runner) methodFact(m *types.Func) *blocksFact {
	m = m.Origin()
	if m.Pkg() == nil {
		return nil
	}
	if s := r.byFunc[m]; s != nil {
		if s.root != notRoot || (s.result == nil && len(s.dyn) == 0) {
			return nil
		}
		bf := &blocksFact{Dyn: s.dyn}
		if s.result != nil {
			bf = s.summary().fact()
			bf.Dyn = s.dyn
		}
		return bf
	}
	key := knowledge.Qualified(m, m.Pkg().Path())
	if r.cfg.Allow[key] {
		return nil
	}
	var f blocksFact
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
		return &blocksFact{Rule: "SIO001", Chain: []string{key}, Sites: []string{""}, Detail: verb, Hint: "use " + rep.Use}
	case r.cfg.Waits[key] != "":
		return &blocksFact{Rule: "SIO005", Chain: []string{key}, Sites: []string{""}, Detail: "waits with no way to cancel it", Hint: r.cfg.Waits[key]}
	case isIOCall(r.cfg.IO, m, sig, key, r.pass.Pkg.Path()):
		return &blocksFact{Chain: []string{key}, Sites: []string{""}}
	}
	return nil
}

// methodOpaque reports whether method m of a concrete type hands a context
// to a call the analysis cannot follow (blocksFact.Opaque), which
// methodFact, having no path to dispatch, leaves out.
func (r *runner) methodOpaque(m *types.Func) bool {
	m = m.Origin()
	if m.Pkg() == nil || r.cfg.Allow[knowledge.Qualified(m, m.Pkg().Path())] {
		return false
	}
	if s := r.byFunc[m]; s != nil {
		return s.root == notRoot && (s.opaque || (s.memOpaque && !r.memoryIdle()))
	}
	var f blocksFact
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
		ikey, ok := ifaceKey(dst)
		if !ok {
			return
		}
		if _, ok := t.Underlying().(*types.Interface); ok {
			// Interface to interface: an edge that the concrete types
			// converted to the source interface travel along.
			if from, ok := ifaceKey(t); ok && from != ikey && !seen[from+"→"+ikey] {
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
				bf = &blocksFact{}
			}
			if bf == nil && r.methodOpaque(fn) {
				// It hands its context to something unseen: no
				// path to dispatch, but evidence for SIO002's
				// deferred candidates (bindings.opaque).
				bf = &blocksFact{Opaque: true}
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
				r.compositeConversions(n, add, where)
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

// compositeConversions reports the conversions in a composite literal's
// fields and elements.
func (r *runner) compositeConversions(lit *ast.CompositeLit, add func(ast.Expr, types.Type, string), where string) {
	t := r.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := r.pass.TypesInfo.ObjectOf(id).(*types.Var); ok {
						add(kv.Value, v.Type(), where)
					}
				}
			} else if i < u.NumFields() {
				add(e, u.Field(i).Type(), where)
			}
		}
	case *types.Slice, *types.Array, *types.Map:
		var elem types.Type
		switch u := u.(type) {
		case *types.Slice:
			elem = u.Elem()
		case *types.Array:
			elem = u.Elem()
		case *types.Map:
			elem = u.Elem()
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			add(e, elem, where)
		}
	}
}

// join resolves the pending interface calls this package sees against the
// conversions it sees, reports what no dependency reported, and exports
// what this package adds for the packages above it. dropped are this
// package's deferred SIO002 candidates (decideDropped).
func (r *runner) join(pending []pendingCall, dropped []droppedCall, convs []conv) {
	if len(pending) > 0 || len(dropped) > 0 {
		r.pass.ExportPackageFact(&pendingFact{Calls: pending, Dropped: dropped})
	}
	if len(convs) > 0 {
		r.pass.ExportPackageFact(&convFact{Convs: convs})
	}
	allConvs := convs
	allPending := pending
	allDropped := dropped
	reported := map[string]bool{}
	var keys []string
	// The static paths this package reported at its roots' calls count
	// as reported, here and (for calls with pending dispatch) above.
	pendingSites := map[string]bool{}
	for _, pc := range pending {
		pendingSites[pc.Site] = true
	}
	for k := range r.emitted {
		reported[k] = true
		if site, _, _ := strings.Cut(k, "|"); pendingSites[site] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	// Drivers hand the package facts over in map order. The order decides
	// which of several bindings to one blocking operation leads a
	// diagnostic (its "bound to … in …" label) and the order of reports,
	// so it is fixed here: by import path, after this package's own.
	facts := r.pass.AllPackageFacts()
	sort.SliceStable(facts, func(i, j int) bool { return facts[i].Package.Path() < facts[j].Package.Path() })
	for _, pf := range facts {
		if pf.Package == r.pass.Pkg {
			continue
		}
		switch f := pf.Fact.(type) {
		case *convFact:
			allConvs = append(allConvs, f.Convs...)
		case *pendingFact:
			allPending = append(allPending, f.Calls...)
			allDropped = append(allDropped, f.Dropped...)
		case *joinedFact:
			for _, k := range f.Keys {
				reported[k] = true
			}
		}
	}
	if (len(allPending) == 0 || len(allConvs) == 0) && len(allDropped) == 0 {
		if len(keys) > 0 {
			r.pass.ExportPackageFact(&joinedFact{Keys: keys})
		}
		return
	}
	b := &bindings{byMethod: map[string][]*conv{}, into: map[string][]string{}, stored: map[string]map[string]bool{}, own: map[string]bool{}, bound: map[string]bool{}}
	for i := range allConvs {
		c := &allConvs[i]
		if c.From != "" {
			b.into[c.Iface] = append(b.into[c.Iface], c.From)
			continue
		}
		b.bound[c.Iface] = true
		if c.Site != "" {
			if b.stored[c.Iface] == nil {
				b.stored[c.Iface] = map[string]bool{}
			}
			b.stored[c.Iface][c.Site] = true
		}
		for _, m := range c.Methods {
			b.byMethod[m.Name] = append(b.byMethod[m.Name], c)
			if !c.Dep {
				b.own[m.Name] = true
			}
		}
	}
	for _, pc := range allPending {
		var fs []*finding
		b.budget, b.argBudget = maxDispatchWork, maxArgWork
		b.explored = map[string]bool{}
		for _, f := range r.dispatch(pc.Dyn, b, 0, map[string]bool{}) {
			if g := r.applyPending(pc, f); g != nil {
				fs = append(fs, g)
			}
		}
		// The highest-ranked path of a rule leads its diagnostic; the
		// rule's other blocking operations are listed after it (report).
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].better(fs[j]) })
		// A (call, rule, blocking operation) is reported once: a package
		// that sees more bindings than the one below it adds only the
		// operations that were not shown yet.
		var fresh []*finding
		for _, f := range fs {
			g := *f
			term := f.terminal()
			if g.rule != "" && reported[pc.Site+"|"+g.rule+"|"+term] {
				g.rule = ""
			}
			if g.lock != "" && reported[pc.Site+"|SIO003|"+term] {
				g.lock = ""
			}
			if g.rule == "" && g.lock == "" {
				continue
			}
			fresh = append(fresh, &g)
			for _, k := range []string{g.rule, "SIO003"} {
				if k == "" || (k == "SIO003" && g.lock == "") {
					continue
				}
				key := pc.Site + "|" + k + "|" + term
				if !reported[key] {
					reported[key] = true
					keys = append(keys, key)
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
		r.report(&fnSummary{name: pc.Root}, item{pos: pos, end: end, merged: true}, fresh)
	}
	for _, dc := range allDropped {
		if key, ok := r.decideDropped(dc, b, reported); ok {
			reported[key] = true
			keys = append(keys, key)
		}
	}
	if len(keys) > 0 {
		r.pass.ExportPackageFact(&joinedFact{Keys: keys})
	}
}

// applyPending applies the configuration and the suppressions recorded on
// the way to a dispatched finding.
func (r *runner) applyPending(pc pendingCall, f *finding) *finding {
	g := r.applyRules(f, pc.Dyn.Lock, "", func(rule string) bool { return slices.Contains(pc.Dyn.Ignore, rule) })
	if g == nil || (g.rule == "" && g.lock == "") {
		return nil
	}
	return g
}

// dispatch returns the paths behind one interface call: one per bound
// concrete type whose method blocks, following nested interface calls.
func (r *runner) dispatch(d dynCall, b *bindings, depth int, visiting map[string]bool) []*finding {
	if depth >= maxDispatchDepth || (d.Dep && !b.own[d.Method]) || visiting[d.key()] {
		return nil
	}
	if d.Method == "" && d.One && len(b.stored[d.Iface]) != 1 {
		// A field of one value, stored into at several places: which of
		// them filled this value is not known here (two order.Services
		// literals, one blocking and one not), so none is followed. Nor
		// is a standard-library field (http.Transport.DialContext), whose
		// places are not recorded.
		return nil
	}
	// The same interface call reached again on another path, at the same
	// depth with the same lock and ignores, leads to the same operations:
	// the join keeps the first path to each, so it is explored once.
	done := d.key() + "|" + strconv.Itoa(depth) + "|" + d.Lock + "|" + strings.Join(d.Ignore, ",")
	if b.explored[done] {
		return nil
	}
	b.explored[done] = true
	visiting[d.key()] = true
	defer delete(visiting, d.key())
	var out []*finding
	last := len(d.Chain) - 1
	reach := b.reaching(d.Iface)
	targets := 0
	for _, c := range b.byMethod[d.Method] {
		if !reach[c.Iface] || (d.Dep && c.Dep) {
			// A dependency's call bound to the dependency's own type
			// (a pool's connection, a driver's statement) is its
			// plumbing: the tables judge its I/O where the program
			// calls it.
			continue
		}
		if b.budget--; b.budget < 0 {
			break
		}
		cm := c.method(d.Method)
		bf := cm.Fact
		ifaceName := d.Iface
		if i := strings.LastIndexByte(ifaceName, '/'); i >= 0 {
			ifaceName = ifaceName[i+1:]
		}
		entry := d.Chain[last] + " (" + ifaceName + ", bound to " + c.Type + " in " + c.Where + ")"
		method := methodName(c.Type, d.Method)
		if d.Method == "" {
			// A call through a slot (stored.go): c is a function stored there.
			if targets++; targets > maxSlotTargets {
				break
			}
			entry = d.Chain[last] + " (via the func stored in " + slotName(d.Iface) + " by " + c.Where + ")"
			method = c.Type
		}
		// The path up to and including the interface call, then the
		// concrete method at the same site.
		prefix := append(append([]string(nil), d.Chain[:last]...), entry, method)
		sites := append(append([]string(nil), d.Sites...), d.Sites[last])
		out = append(out, r.follow(d, bf, prefix, sites, b, depth, visiting, 0)...)
		// The func arguments the bound method calls on the spot run on
		// the caller's path, after the method in the chain.
		for _, a := range d.Args {
			if b.argBudget <= 0 {
				break
			}
			if !slices.Contains(cm.Calls, a.Param) {
				continue
			}
			p := append(append([]string(nil), prefix...), a.Name)
			s := append(append([]string(nil), sites...), a.Site)
			out = append(out, r.follow(d, a.Fact, p, s, b, depth, visiting, maxArgDynWork)...)
		}
	}
	return out
}

// follow returns the paths of bf (a bound method, or a func argument it
// calls) after prefix, the chain to it from d's caller, following its
// interface calls one hop deeper. With sub > 0 (a func argument), each of
// those interface calls may visit at most sub bindings, counted against
// the call's argBudget too: a literal full of repository calls
// (tx.Album(ctx).Get(id), …) is followed as far as that goes, and the
// calls written after them still get their share.
func (r *runner) follow(d dynCall, bf *blocksFact, prefix, sites []string, b *bindings, depth int, visiting map[string]bool, sub int) []*finding {
	if bf.Opaque || (bf.OpaqueMemory && !r.memoryIdle()) {
		b.opaque = true
	}
	var out []*finding
	wrap := func(f *finding) *finding {
		if f.ref {
			return f // names its operation only
		}
		g := *f
		g.chain = append(append([]string(nil), prefix...), f.chain...)
		g.sites = append(append([]string(nil), sites...), f.sites...)
		g.poses = nil
		for _, s := range g.sites {
			g.poses = append(g.poses, r.sitePos(s))
		}
		return &g
	}
	if len(bf.Chain) > 0 {
		f := r.fromFact(bf)
		for i := range bf.More {
			f.more = append(f.more, r.fromFact(&bf.More[i]))
		}
		for _, p := range f.all() {
			out = append(out, wrap(p))
		}
	}
	for _, nd := range bf.Dyn {
		if depth+1 >= maxDispatchDepth || (nd.Dep && !b.own[nd.Method]) {
			// Nothing the program converts has the method: a dependency's
			// call here leads nowhere, and copying its chain for every
			// binding cost more memory than all the rest of the join
			// (pocketbase).
			continue
		}
		nd.Chain = append(append([]string(nil), prefix...), nd.Chain...)
		nd.Sites = append(append([]string(nil), sites...), nd.Sites...)
		if nd.Lock == "" {
			nd.Lock = d.Lock
		}
		nd.Ignore = mergeRules(nd.Ignore, d.Ignore)
		saved := b.budget
		if sub > 0 {
			if b.argBudget <= 0 {
				break
			}
			b.budget = min(saved, sub, b.argBudget)
		}
		start := b.budget
		fs := r.dispatch(nd, b, depth+1, visiting)
		if sub > 0 {
			used := start - max(b.budget, 0)
			b.budget = saved - used
			b.argBudget -= used
		}
		for _, f := range fs {
			if f.lock == "" && d.Lock != "" && lockable[f.rule] {
				f.lock = d.Lock
			}
			out = append(out, f)
		}
	}
	return out
}

// bindings index the conversions a package sees.
type bindings struct {
	byMethod map[string][]*conv         // concrete conversions by method name
	into     map[string][]string        // interface → the interfaces converted to it
	stored   map[string]map[string]bool // slot → the places a func is stored there
	own      map[string]bool            // method names of the program's own conversions (conv.Dep unset)
	bound    map[string]bool            // interfaces (and slots) some concrete type or func is bound to, idle ones included
	// opaque is set when a binding followed hands its context to a call
	// the analysis cannot follow (blocksFact.Opaque): SIO002's deferred
	// candidates count it as reaching I/O.
	opaque bool
	// budget is what is left of maxDispatchWork for the pending call
	// being joined.
	budget int
	// argBudget is what is left of maxArgWork for the same call.
	argBudget int
	// explored are the interface calls the pending call has been
	// followed through (dispatch).
	explored map[string]bool
}

// reaching returns iface and every interface whose values flow into it.
func (b *bindings) reaching(iface string) map[string]bool {
	seen := map[string]bool{iface: true}
	queue := []string{iface}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, from := range b.into[x] {
			if !seen[from] {
				seen[from] = true
				queue = append(queue, from)
			}
		}
	}
	return seen
}

// methodName names a concrete method as chains do: store.(*SQL).Ping for
// the type name *store.SQL.
func methodName(typ, method string) string {
	ptr := strings.HasPrefix(typ, "*")
	typ = strings.TrimPrefix(typ, "*")
	pkg, name, ok := strings.Cut(typ, ".")
	if !ok {
		return typ + "." + method
	}
	if ptr {
		return pkg + ".(*" + name + ")." + method
	}
	return pkg + "." + name + "." + method
}

// pendingOf returns the pending calls of a root's items.
func (r *runner) pendingOf(s *fnSummary) []pendingCall {
	var out []pendingCall
	for _, it := range s.items {
		for _, d := range r.sealArgs(r.dynOf(s, it), 0) {
			out = append(out, pendingCall{Root: s.name, Site: r.site(it.pos), EndSite: r.site(it.end), Dyn: d})
		}
	}
	return out
}
