package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/regions"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// The rules' side: which operations and calls in a body may block. Callees
// are handed to call resolution (calls.go) as items.

// collect walks a body in source order and records what may block. The
// body of a go statement and func literals that are not called on the spot
// are off the request path and skipped.
func (s *scanned) collect(sig *types.Signature, body *ast.BlockStmt) []paths.Item {
	if body == nil {
		return nil
	}
	info := s.view.pass.TypesInfo
	flow := dataflow.NewCtx(info, sig, body, s.view.ginFallback)
	// Literals handed to a value that is then asked to run them (a hook
	// chain) run before the function returns.
	invoked := resolve.HandedAndRun(info, body)
	var items []paths.Item
	// Every blocking operation is recorded whether or not its rule is on:
	// resolveAt applies the configuration, and a disabled rule's operation
	// still blocks under a lock (SIO003).
	//
	gorm := dataflow.NewChain(info, sig, body)
	later := dataflow.NewLater(info, flow, body, s.view.attachOf)
	waits := s.view.rules.NewWaitFlow(body, flow)
	deadlines := s.view.rules.NewDeadlines(sig, body)
	var onceSpans [][2]token.Pos // arguments given to once-only parameters (memo.go)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n]
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					s.view.rep.Assigns[call] = n
				}
			}
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				invoked[lit] = true
			}
			for _, j := range s.memos.Once(n) {
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && info.Selections[sel] != nil && !resolve.Kept(info, sig, sel.X, s.perRequest) {
					break // a sync.Once of this call's own: runs every time
				}
				for _, a := range resolve.CalledArgs(info, n, j) {
					onceSpans = append(onceSpans, [2]token.Pos{a.Pos(), a.End()})
				}
			}
			// Callbacks the callee runs before it returns are on this path.
			for _, j := range s.sync.Params(typeutil.StaticCallee(info, n)) {
				for _, a := range resolve.CalledArgs(info, n, j) {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						invoked[lit] = true
					} else if fn := funcRef(info, a); fn != nil {
						if it, ok := s.refItem(fn, a.Pos(), a.End(), nil); ok {
							items = append(items, it)
						}
					} else {
						// A func value read from a slot: what is stored there.
						items = append(items, s.slotItems(a, a.Pos(), a.End(), nil)...)
					}
				}
			}
			if s.view.throughValue(n) {
				found := s.slotItems(n.Fun, n.Pos(), n.End(), n)
				found = append(found, s.valueItems(n)...)
				// A dependency's func values are its own plumbing.
				if len(found) == 0 && !s.view.thirdParty && resolve.KeptValue(info, n.Fun) {
					found = append(found, paths.Item{Pos: n.Pos(), End: n.End(), Call: n, Unfollowed: s.view.site(n.Pos())})
				}
				items = append(items, found...)
			}
			if it, ok := deadlines.Call(n); ok {
				items = append(items, it) // SIO008's client part, besides the I/O it is
			}
			if it, ok := s.classifyCall(n, flow, gorm, later, false); ok {
				items = append(items, it)
				if it.Also != nil {
					items = append(items, *it.Also)
				}
			} else if s.view.opaqueCall(n) {
				items = append(items, paths.Item{Pos: n.Pos(), End: n.End(), Call: n, Opaque: true})
			}
		case *ast.CompositeLit:
			if it, ok := s.view.rules.ClientLiteral(n); ok {
				items = append(items, it)
			}
		case *ast.SelectStmt:
			if it, ok := waits.SelectStmt(n); ok {
				items = append(items, it)
			}
		case *ast.SendStmt:
			if it, ok := waits.Send(n); ok {
				items = append(items, it)
			}
		case *ast.UnaryExpr:
			if it, ok := waits.Receive(n); ok {
				items = append(items, it)
			}
		case *ast.RangeStmt:
			if it, ok := waits.RangeStmt(n); ok {
				items = append(items, it)
			}
		}
		return true
	})
	items = paths.Drop(items, s.exits.Spans(body))
	// A memoised getter's construction runs once, at start-up or on the
	// first call: no request path's, whatever it blocks on.
	items = paths.Drop(items, resolve.FirstUse(info, sig, body, s.perRequest))
	markOnce(items, onceSpans)
	paths.MarkGuards(items, dataflow.NilGuards(info, sig, body, s.ctxOpts))
	deadlines.Mark(items)
	s.markJoins(items, body, flow, gorm, later)
	if locks := regions.Locks(info, s.view.pass.Fset, body); len(locks) > 0 {
		for i := range items {
			desc, root := regions.LockHeld(locks, items[i].Pos)
			if desc != "" && root != nil && sig != nil && root == sig.Recv() {
				desc = paths.RecvLock + desc // dataflow.Owners
			}
			items[i].Lock = desc
		}
	}
	own := dataflow.NewOwners(info, sig, body)
	for i := range items {
		items[i].RecvOwn = own.Call(items[i].Call)
	}
	if txs := regions.Txs(info, s.view.pass.Fset, body); len(txs) > 0 {
		for i := range items {
			items[i].Tx = regions.OpenTxAt(info, txs, items[i].Pos, items[i].Call)
		}
		items = s.view.rules.GRPCUnderTx(body, txs, items, invoked)
	}
	return items
}

// classifyCall turns a call into an item when it may block.
// With skipCtx the SIO002 check of the first argument is skipped: what
// the call leads to otherwise.
func (s *scanned) classifyCall(call *ast.CallExpr, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later, skipCtx bool) (paths.Item, bool) {
	info := s.view.pass.TypesInfo
	tv, ok := info.Types[call.Fun]
	if !ok || tv.IsType() || tv.IsBuiltin() || tv.Type == nil {
		return paths.Item{}, false
	}
	sig, _ := tv.Type.Underlying().(*types.Signature)
	fn := typeutil.StaticCallee(info, call)
	if fn != nil {
		fn = fn.Origin()
	}
	var key string
	if fn != nil && fn.Pkg() != nil {
		key = knowledge.Qualified(fn, fn.Pkg().Path())
		if s.view.cfg.Allow[key] || later.OnInMemory(call) {
			return paths.Item{}, false // declared safe, or a method of an in-memory value
		}
	}
	pos, end := call.Pos(), call.End()
	// The kind is the callee's, by import path (a chain names a
	// dependency's callee by package name only).
	kindKey := key
	mk := func(rule, name, detail, hint string) paths.Item {
		k := kindKey
		if k == "" {
			k = name
		}
		return paths.Item{Pos: pos, End: end, Call: call, Term: &paths.Finding{
			Rule: rule, Chain: []string{name}, Sites: []string{s.view.site(pos)}, Poses: []token.Pos{pos},
			Detail: detail, Hint: hint, Kind: knowledge.OpKindOf(k),
		}}
	}
	if !skipCtx {
		rest := func() (paths.Item, bool) { return s.classifyCall(call, flow, gorm, later, true) }
		if it, ok := s.ctxs.Call(call, sig, fn, flow, mk, rest); ok {
			return it, true
		}
	}
	if fn == nil {
		// An interface method is matched by its declaration (redigo's
		// redis.Conn.Do), whatever value is behind it: the interface is
		// the API contract, and every implementation does the round trip.
		// Inside the library that declares the interface, a call through
		// it is the library's own implementation (redigo's pooled Close
		// flushing through Conn.Do("")), not a caller's round trip.
		if im := resolve.InterfaceMethod(info, call); im != nil && (!s.view.thirdParty || im.Pkg() != s.view.pass.Pkg) {
			ikey := knowledge.Qualified(im, im.Pkg().Path())
			if rep, ok := s.view.cfg.Blocking[ikey]; ok && !s.view.cfg.Allow[ikey] {
				return rules.Blocking(ikey, rep.Use, rep.Verb, mk), true
			}
		}
	}
	if fn == nil {
		// db.WithContext(ctx).Migrator().HasTable(&T{}): the migrator runs
		// its queries on the chain it was built from, whatever its
		// implementation (a query on its stored DB) says, so it is judged
		// here like a finisher and not dispatched into gorm's source.
		if im := resolve.InterfaceMethod(info, call); im != nil {
			if method, query := knowledge.GormMigratorMethod(im); method {
				if !query {
					return paths.Item{}, false // FullDataTypeOf, GetTypeAliases: no query
				}
				return s.view.rules.GormQuery(call, im, knowledge.PathGorm, gorm, mk), true
			}
		}
		if d := s.dynItem(call); d != nil {
			// Inside a dependency the call stays opaque as well, as it
			// was before such calls were kept: dispatch follows it only
			// to the program's own types (dynItem).
			return paths.Item{Pos: pos, End: end, Call: call, Dyn: d, Opaque: d.Dep && s.view.opaqueCall(call)}, true
		}
	}
	if fn == nil || fn.Pkg() == nil {
		return paths.Item{}, false // an unknown func value: no guessing
	}
	if rep, ok := s.view.cfg.Blocking[key]; ok && !dataflow.CtxRouted(rep.Routed, info, call) {
		if later.Silenced(key, call) {
			return paths.Item{}, false // given the request's context later, or a detached daemon
		}
		return rules.Blocking(key, rep.Use, rep.Verb, mk), true
	}
	if it, ok, known := s.view.rules.TableWait(key, mk); known {
		return it, ok
	}
	if it, ok := s.view.rules.GormFinisher(call, fn, gorm, mk); ok {
		return it, true
	}
	if it, ok := s.view.rules.DbxFinisher(call, fn, gorm, mk); ok {
		return it, true
	}
	if it, ok := s.view.rules.ClientCall(fn, key, mk); ok {
		return it, true
	}
	if it, ok := s.view.rules.FileCall(call, key, mk); ok {
		return it, true
	}
	if s.view.buildsRequest(fn) && later.Silenced("net/http.NewRequest", call) {
		return paths.Item{}, false // the request it builds is given a context before it is sent
	}
	if it, ok := s.refItem(fn, pos, end, call); ok {
		return it, true // a callee: call resolution says what it leads to
	}
	if dataflow.IsIOCall(s.view.cfg.IO, fn, sig, key, s.view.pass.Pkg.Path()) {
		// I/O that honours its context: a finding only under a lock.
		return paths.Item{Pos: pos, End: end, Call: call, Term: &paths.Finding{
			Chain: []string{paths.TerminalName(fn)}, Sites: []string{s.view.site(pos)}, Poses: []token.Pos{pos},
			Kind: knowledge.OpKindOf(key),
		}}, true
	}
	return paths.Item{}, false
}

// opaqueCall reports whether call, which classifyCall found nothing in,
// passes a context to a function the analysis cannot follow: an interface
// method that is not dispatched (gRPC's ClientConnInterface.Invoke in a
// generated client, any interface inside a dependency) or a func value,
// or reads the Done channel of a context (a wait that only it bounds).
// Loggers' and tracers' interfaces take a context to read values from it.
func (v *pkgView) opaqueCall(call *ast.CallExpr) bool {
	info := v.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); lit || typeutil.StaticCallee(info, call) != nil {
		return false // a literal called on the spot is walked with the body
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Done" && len(call.Args) == 0 &&
		named.IsContext(info.TypeOf(sel.X)) {
		// ctx.Done(): a wait bounded by the context (x/sync/semaphore's
		// Acquire selects on it), which context.Background() never ends.
		return true
	}
	ctxArg := false
	for _, a := range call.Args {
		if named.IsContext(info.TypeOf(a)) {
			ctxArg = true
			break
		}
	}
	if !ctxArg {
		return false
	}
	if im := resolve.InterfaceMethod(info, call); im != nil && knowledge.Observability(im.Pkg().Path()) {
		return false
	}
	return true
}
