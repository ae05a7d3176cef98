package analyzer

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/regions"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// The rules' side: which operations and calls in a body may block. Callees
// are handed to call resolution (calls.go) as items.

// collect walks a body in source order and records what may block. The
// body of a go statement and func literals that are not called on the spot
// are off the request path and skipped.
func (r *runner) collect(sig *types.Signature, body *ast.BlockStmt) []item {
	if body == nil {
		return nil
	}
	info := r.pass.TypesInfo
	flow := newCtxFlow(info, sig, body, r.ginFallback)
	// Literals handed to a value that is then asked to run them (a hook
	// chain) run before the function returns.
	invoked := resolve.HandedAndRun(info, body)
	inSelect := map[ast.Node]bool{}
	var items []item
	term := func(rule string, pos, end token.Pos, name, detail, hint string) item {
		return item{pos: pos, end: end, term: &finding{
			rule: rule, chain: []string{name}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
			detail: detail, hint: hint, kind: knowledge.OpKindOf(name),
		}}
	}
	// Every blocking operation is recorded whether or not its rule is on:
	// resolveAt applies the configuration, and a disabled rule's operation
	// still blocks under a lock (SIO003).
	//
	// Channel operations in third-party code are the library's own
	// synchronisation (a buffer it just filled, a generator goroutine);
	// its waits on the outside world are I/O, which the tables describe.
	wait := !r.thirdParty
	gorm := newGormFlow(info, sig, body)
	later := newLaterFlow(info, flow, body, r.attachOf)
	// x.Done() is the cancellation escape, and so are local variables
	// holding it (done := ctx.Done()), unless x is a context that does not
	// derive from the request's (context.Background(), a timeout derived
	// from it): waiting on that is a wait the request cannot end. A Done
	// of unknown origin (a field, a parameter, a type that is no context)
	// is an escape.
	doneVars := map[types.Object]ctxInfo{}
	doneOf := func(e ast.Expr) ctxInfo {
		if !isDoneCall(e) {
			return ctxInfo{}
		}
		sel := ast.Unparen(ast.Unparen(e).(*ast.CallExpr).Fun).(*ast.SelectorExpr)
		if ci := flow.classify(sel.X); ci.class == ctxDropped {
			return ci
		}
		return ctxInfo{class: ctxRequest}
	}
	// sent holds, per channel expression, the first send on it in body: a
	// later receive on the same channel is the release of a semaphore slot
	// the function took (sem <- struct{}{}; defer func() { <-sem }()), and
	// finds the element the send put there.
	// Sends in other goroutines (or closures that may run in one) put
	// nothing there for this function, and an unbuffered channel made here
	// keeps nothing at all.
	sent := map[string]token.Pos{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if k := types.ExprString(n.Chan); sent[k] == token.NoPos || n.Pos() < sent[k] {
				sent[k] = n.Pos()
			}
		}
		return true
	})
	unbuffered := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, rhs := range as.Rhs {
				call, ok := ast.Unparen(rhs).(*ast.CallExpr)
				id, isID := as.Lhs[i].(*ast.Ident)
				if ok && isID && len(call.Args) == 1 && isBuiltin(info, call.Fun, "make") {
					unbuffered[info.ObjectOf(id)] = true
				}
			}
		}
		return true
	})
	// discardedRecv are receives whose value is dropped (<-ch as a
	// statement): the shape of a semaphore release.
	discardedRecv := map[*ast.UnaryExpr]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if es, ok := n.(*ast.ExprStmt); ok {
			if u, ok := ast.Unparen(es.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				discardedRecv[u] = true
			}
		}
		return true
	})
	releases := func(ch ast.Expr) bool {
		p, ok := sent[types.ExprString(ch)]
		if id, isID := ast.Unparen(ch).(*ast.Ident); isID && unbuffered[info.ObjectOf(id)] {
			return false
		}
		return ok && p < ch.Pos()
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, rhs := range as.Rhs {
				if id, ok := as.Lhs[i].(*ast.Ident); ok && isDoneCall(rhs) {
					if obj := info.ObjectOf(id); obj != nil {
						doneVars[obj] = meet(doneVars[obj], doneOf(rhs))
					}
				}
			}
		}
		return true
	})
	// isDone says whether e is a Done channel: class ctxRequest for an
	// escape, ctxDropped for the Done of a context the request cannot
	// cancel, ctxUnset for any other channel.
	isDone := func(e ast.Expr) ctxInfo {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			ci := doneVars[info.ObjectOf(id)]
			if ci.class == ctxUnknown {
				ci.class = ctxRequest // assigned from both: no guessing
			}
			return ci
		}
		return doneOf(e)
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n]
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok {
					r.assigns[call] = n
				}
			}
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				invoked[lit] = true
			}
			// Callbacks the callee runs before it returns are on this path.
			for _, j := range r.calledParams(typeutil.StaticCallee(info, n)) {
				for _, a := range calledArgs(info, n, j) {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						invoked[lit] = true
					} else if fn := funcRef(info, a); fn != nil {
						if it, ok := r.refItem(fn, a.Pos(), a.End(), nil); ok {
							items = append(items, it)
						}
					} else {
						// A func value read from a slot: what is stored there.
						items = append(items, r.slotItems(a, a.Pos(), a.End(), nil)...)
					}
				}
			}
			if r.throughValue(n) {
				items = append(items, r.slotItems(n.Fun, n.Pos(), n.End(), n)...)
				items = append(items, r.valueItems(n)...)
			}
			if it, ok := r.classifyCall(n, flow, gorm, later, false); ok {
				items = append(items, it)
				if it.also != nil {
					items = append(items, *it.also)
				}
			} else if r.opaqueCall(n) {
				items = append(items, item{pos: n.Pos(), end: n.End(), call: n, opaque: true})
			}
		case *ast.CompositeLit:
			if named.Is(info.TypeOf(n), false, pathHTTP, "Transport") {
				items = append(items, term("SIO004", n.Pos(), n.End(), "http.Transport{}",
					fmt.Sprintf(clientDetail, "an HTTP transport (connection pool)"), clientHint))
			}
		case *ast.SelectStmt:
			escape := false
			dropped := ""
			for _, st := range n.Body.List {
				cc, ok := st.(*ast.CommClause)
				if !ok {
					continue
				}
				if cc.Comm == nil {
					escape = true
					continue
				}
				if op := commOp(cc.Comm); op != nil {
					inSelect[op] = true
					if u, ok := op.(*ast.UnaryExpr); ok {
						switch ci := isDone(u.X); ci.class {
						case ctxRequest:
							escape = true
						case ctxDropped:
							dropped = ci.desc
						}
					}
				}
			}
			slotSends(n, inSelect)
			if wait && !escape {
				detail := "has no ctx.Done() case and no default, so it waits with no way to cancel"
				hint := "add a case <-ctx.Done() that returns ctx.Err()"
				if dropped != "" {
					detail = "has no default, and its Done() case is on " + dropped +
						", not on the request's context, so the request cannot cancel the wait"
					hint = "derive that context from the request's (or add a case <-ctx.Done() on it) and return ctx.Err()"
				}
				items = append(items, term("SIO005", n.Select, n.Select+token.Pos(len("select")), "select", detail, hint))
			}
		case *ast.SendStmt:
			if wait && !inSelect[n] {
				items = append(items, term("SIO005", n.Pos(), n.End(), "channel send",
					"waits with no ctx.Done() escape", "send in a select with a case <-ctx.Done()"))
			}
		case *ast.UnaryExpr:
			if !wait || n.Op != token.ARROW || inSelect[n] {
				break
			}
			if releases(n.X) {
				break // the release of a slot taken above
			}
			if discardedRecv[n] && r.semaphoreChan(n.X) {
				break // a release helper: func (s *slots) release() { <-s.sem }
			}
			switch ci := isDone(n.X); ci.class {
			case ctxUnset:
				items = append(items, term("SIO005", n.Pos(), n.End(), "channel receive",
					"waits with no ctx.Done() escape", "receive in a select with a case <-ctx.Done()"))
			case ctxDropped:
				items = append(items, term("SIO005", n.Pos(), n.End(), "channel receive",
					"waits on the Done() of "+ci.desc+", which the request cannot cancel",
					"derive that context from the request's"))
			}
		case *ast.RangeStmt:
			if t := info.TypeOf(n.X); wait && t != nil {
				if _, ok := t.Underlying().(*types.Chan); ok {
					items = append(items, term("SIO005", n.For, n.X.End(), "range over channel",
						"waits with no ctx.Done() escape", "receive in a loop around a select with a case <-ctx.Done()"))
				}
			}
		}
		return true
	})
	r.markJoins(items, body, flow, gorm, later)
	if locks := regions.Locks(info, r.pass.Fset, body); len(locks) > 0 {
		for i := range items {
			items[i].lock = regions.LockHeldAt(locks, items[i].pos)
		}
	}
	if txs := regions.Txs(info, r.pass.Fset, body); len(txs) > 0 {
		for i := range items {
			items[i].tx = regions.OpenTxAt(info, txs, items[i].pos, items[i].call)
		}
		items = r.grpcUnderTx(body, txs, items, invoked)
	}
	return items
}

// commOp returns the channel operation of a select case.
func commOp(st ast.Stmt) ast.Node {
	switch st := st.(type) {
	case *ast.SendStmt:
		return st
	case *ast.ExprStmt:
		if u, ok := ast.Unparen(st.X).(*ast.UnaryExpr); ok {
			return u
		}
	case *ast.AssignStmt:
		if len(st.Rhs) == 1 {
			if u, ok := ast.Unparen(st.Rhs[0]).(*ast.UnaryExpr); ok {
				return u
			}
		}
	}
	return nil
}

// isDoneCall reports whether e is x.Done(): waiting on it is the
// cancellation escape itself.
func isDoneCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done"
}

// classifyCall turns a call into an item when it may block.
// With skipCtx the SIO002 check of the first argument is skipped: what
// the call leads to otherwise.
func (r *runner) classifyCall(call *ast.CallExpr, flow *ctxFlow, gorm *gormFlow, later *laterFlow, skipCtx bool) (item, bool) {
	info := r.pass.TypesInfo
	tv, ok := info.Types[call.Fun]
	if !ok || tv.IsType() || tv.IsBuiltin() || tv.Type == nil {
		return item{}, false
	}
	sig, _ := tv.Type.Underlying().(*types.Signature)
	fn := typeutil.StaticCallee(info, call)
	if fn != nil {
		fn = fn.Origin()
	}
	var key string
	if fn != nil && fn.Pkg() != nil {
		key = qualified(fn, fn.Pkg().Path())
		if r.cfg.Allow[key] {
			return item{}, false // declared safe: neither reported nor propagated
		}
	}
	pos, end := call.Pos(), call.End()
	// The kind is the callee's, by import path (a chain names a
	// dependency's callee by package name only).
	kindKey := key
	mk := func(rule, name, detail, hint string) item {
		k := kindKey
		if k == "" {
			k = name
		}
		return item{pos: pos, end: end, call: call, term: &finding{
			rule: rule, chain: []string{name}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
			detail: detail, hint: hint, kind: knowledge.OpKindOf(k),
		}}
	}
	if !skipCtx && sig != nil && sig.Params().Len() > 0 && len(call.Args) > 0 &&
		isContextType(sig.Params().At(0).Type()) &&
		(fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pathContext) &&
		(!r.thirdParty || fn != nil) {
		if ci := flow.classify(call.Args[0]); ci.class == ctxDropped && !r.factlessIdle(fn) {
			name := types.ExprString(call.Fun)
			if fn != nil && fn.Pkg() != nil {
				name = terminalName(fn)
			}
			arg := ast.Unparen(call.Args[0])
			given := ci.desc
			if id, ok := arg.(*ast.Ident); ok {
				given = id.Name + " (" + ci.desc + ")"
			}
			hint := "pass the request's context, or context.WithoutCancel(ctx) for work that must outlive the request"
			if use := frameworkCtxFix(arg, ci.desc); use != "" {
				hint = "pass " + use
				it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
				it.fixArg = arg
				// Passing c is everywhere in gin services, and the callee's own
				// blocking (a ctx-less query, a sleep) is a problem of its own.
				if rest, ok := r.classifyCall(call, flow, gorm, later, true); ok {
					it.also = &rest
				}
				return it, true
			}
			it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
			if c, ok := arg.(*ast.CallExpr); ok && (ci.desc == "context.Background()" || ci.desc == "context.TODO()") {
				it.fixArg = c
			}
			return it, true
		}
	}
	blocking := func(key string, rep Replacement) item {
		verb := rep.Verb
		if verb == "" {
			verb = "blocks without the request context"
		}
		it := mk("SIO001", key, verb, "use "+rep.Use)
		it.fixKey = key
		return it
	}
	if fn == nil {
		// An interface method is matched by its declaration (redigo's
		// redis.Conn.Do), whatever value is behind it: the interface is
		// the API contract, and every implementation does the round trip.
		// Inside the library that declares the interface, a call through
		// it is the library's own implementation (redigo's pooled Close
		// flushing through Conn.Do("")), not a caller's round trip.
		if im := interfaceMethod(info, call); im != nil && (!r.thirdParty || im.Pkg() != r.pass.Pkg) {
			ikey := qualified(im, im.Pkg().Path())
			if rep, ok := r.cfg.Blocking[ikey]; ok && !r.cfg.Allow[ikey] {
				return blocking(ikey, rep), true
			}
		}
	}
	if fn == nil {
		// db.WithContext(ctx).Migrator().HasTable(&T{}): the migrator runs
		// its queries on the chain it was built from, whatever its
		// implementation (a query on its stored DB) says, so it is judged
		// here like a finisher and not dispatched into gorm's source.
		if im := interfaceMethod(info, call); im != nil {
			if method, query := knowledge.GormMigratorMethod(im); method {
				if !query {
					return item{}, false // FullDataTypeOf, GetTypeAliases: no query
				}
				return r.gormQuery(call, im, knowledge.PathGorm, gorm, mk), true
			}
		}
		if d := r.dynItem(call); d != nil {
			// Inside a dependency the call stays opaque as well, as it
			// was before such calls were kept: dispatch follows it only
			// to the program's own types (dynItem).
			return item{pos: pos, end: end, call: call, dyn: d, opaque: d.Dep && r.opaqueCall(call)}, true
		}
	}
	if fn == nil || fn.Pkg() == nil {
		return item{}, false // an unknown func value: no guessing
	}
	if rep, ok := r.cfg.Blocking[key]; ok && !ctxRouted(rep, info, call) {
		if later.silenced(key, call) {
			return item{}, false // given the request's context later, or a detached daemon
		}
		return blocking(key, rep), true
	}
	if hint, ok := r.cfg.Waits[key]; ok {
		if r.thirdParty && key == "sync.(*Cond).Wait" {
			// Like its channels, a dependency's condition variable is its
			// own in-memory synchronisation (a concurrent map waiting out
			// a resize), not a wait on the outside world.
			return item{}, false
		}
		return mk("SIO005", key, "waits with no way to cancel it", hint), true
	}
	path := knowledge.GormReceiver(fn)
	finisher := path != "" && gormFinishers[fn.Name()]
	if path == "" {
		// db.WithContext(ctx).Model(&u).Association("Roles").Find(&rs):
		// the association runs its query on the chain before it, whatever
		// gorm's own source (a query on the association's stored DB) says.
		path = knowledge.GormAssocReceiver(fn)
		finisher = path != "" && gormAssocFinishers[fn.Name()]
	}
	if finisher {
		return r.gormQuery(call, fn, path, gorm, mk), true
	}
	if what := clientCtor(r.cfg.Clients, fn, key); what != "" {
		return mk("SIO004", terminalName(fn), fmt.Sprintf(clientDetail, what), clientHint), true
	}
	if isFileIO(r.cfg.Files, info, call, key) {
		return mk("SIO006", key, fileDetail, fileHint), true
	}
	if it, ok := r.refItem(fn, pos, end, call); ok {
		return it, true // a callee: call resolution says what it leads to
	}
	if isIOCall(r.cfg.IO, fn, sig, key, r.pass.Pkg.Path()) {
		// I/O that honours its context: a finding only under a lock.
		return item{pos: pos, end: end, call: call, term: &finding{
			chain: []string{terminalName(fn)}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
			kind: knowledge.OpKindOf(key),
		}}, true
	}
	return item{}, false
}

// opaqueCall reports whether call, which classifyCall found nothing in,
// passes a context to a function the analysis cannot follow: an interface
// method that is not dispatched (gRPC's ClientConnInterface.Invoke in a
// generated client, any interface inside a dependency) or a func value,
// or reads the Done channel of a context (a wait that only it bounds).
// Loggers' and tracers' interfaces take a context to read values from it.
func (r *runner) opaqueCall(call *ast.CallExpr) bool {
	info := r.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
		return false
	}
	if _, lit := ast.Unparen(call.Fun).(*ast.FuncLit); lit || typeutil.StaticCallee(info, call) != nil {
		return false // a literal called on the spot is walked with the body
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Done" && len(call.Args) == 0 &&
		isContextType(info.TypeOf(sel.X)) {
		// ctx.Done(): a wait bounded by the context (x/sync/semaphore's
		// Acquire selects on it), which context.Background() never ends.
		return true
	}
	ctxArg := false
	for _, a := range call.Args {
		if isContextType(info.TypeOf(a)) {
			ctxArg = true
			break
		}
	}
	if !ctxArg {
		return false
	}
	if im := interfaceMethod(info, call); im != nil && observability(im.Pkg().Path()) {
		return false
	}
	return true
}

// observability reports whether an import path is a logging, tracing or
// metrics package: an element of it starts with log, zap, zerolog, otel,
// opentelemetry, trace or metric (log/slog, gorm.io/gorm/logger,
// go.opentelemetry.io/otel/trace), by element so that
// github.com/uptrace/bun, a database library, is none.
func observability(path string) bool {
	for _, el := range strings.Split(path, "/") {
		for _, w := range []string{"log", "zap", "zerolog", "otel", "opentelemetry", "trace", "metric"} {
			if strings.HasPrefix(el, w) {
				return true
			}
		}
	}
	return false
}

// factlessIdle reports whether fn, given a dropped context, is a function
// of another analysed package that exports no blocksFact: nothing on its
// paths does I/O or waits (an in-memory validator's VarCtx), so the
// context it is given reaches no blocking operation and is no SIO002.
// The standard library exports no facts (its I/O is judged by the
// tables), so its functions keep the signature rule, as do interface
// methods and func values; the same package's callees are judged in
// resolve (idleCallee), once their summaries are known. A callee that
// returns anything but basic values and errors may return the context
// inside it (plainResults), and is never idle.
func (r *runner) factlessIdle(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.pass.Pkg || stdlibPath(fn.Pkg().Path()) || !plainResults(fn) {
		return false
	}
	if _, ok := r.cfg.Blocking[qualified(fn, fn.Pkg().Path())]; ok {
		return false
	}
	// A request root exports no fact whatever it does (a gRPC method
	// called with context.Background()).
	if sig, _ := fn.Type().(*types.Signature); signatureRoot(sig) != notRoot || grpcRoot(fn) || grpcStreamRoot(fn) || r.configRoot(fn, sig) {
		return false
	}
	var f blocksFact
	if !r.pass.ImportObjectFact(fn, &f) {
		return true
	}
	// A fact holding only interface calls made inside dependencies
	// (dynCall.Dep) is no evidence of I/O, as when they were not kept.
	return len(f.Chain) == 0 && len(f.More) == 0 && !f.Opaque && !ownDyn(f.Dyn)
}

// plainResults reports whether fn returns only basic values and errors:
// nothing that could carry the context it is given to I/O done later (a
// builder such as gorm's db.WithContext(ctx) returns the *gorm.DB that
// its finisher runs with ctx).
func plainResults(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return false
	}
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if _, basic := t.Underlying().(*types.Basic); !basic && !isErrorType(t) {
			return false
		}
	}
	return true
}

// gormQuery is the item of a call that runs a query on a gorm chain (a
// finisher of *gorm.DB or *gorm.Association, a query method of
// gorm.Migrator), judged by the chain before it: SIO001 when it never
// calls WithContext and starts from a stored DB, else context-aware I/O.
func (r *runner) gormQuery(call *ast.CallExpr, fn *types.Func, path string, gorm *gormFlow, mk func(rule, name, detail, hint string) item) item {
	info := r.pass.TypesInfo
	pos, end := call.Pos(), call.End()
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		sel = &ast.SelectorExpr{X: call.Fun} // not a method call as written: unknown
	}
	if path == knowledge.PathGormV1 {
		return mk("SIO001", displayName(fn), "runs a query that cannot be cancelled: gorm v1 has no context support",
			"migrate to gorm.io/gorm and chain db.WithContext(ctx), or bound the query with a statement timeout")
	}
	if gorm.state(sel.X, 0) == gormNoCtx {
		const detail = "runs a query on a *gorm.DB chain that never calls WithContext, so the request context is not used"
		root := gormChainRoot(info, sel.X)
		if !isGormDB(info.TypeOf(root)) {
			// An association or migrator variable: the chain is where it was built.
			return mk("SIO001", displayName(fn), detail,
				"build "+types.ExprString(root)+" from a chain that starts with WithContext(ctx)")
		}
		it := mk("SIO001", displayName(fn), detail,
			"start the chain with WithContext: "+types.ExprString(root)+".WithContext(ctx)…")
		it.gormRoot = root
		return it
	}
	// With a context (or one we cannot see) the query is still I/O.
	return item{pos: pos, end: end, call: call, term: &finding{
		chain: []string{displayName(fn)}, sites: []string{r.site(pos)}, poses: []token.Pos{pos},
		kind: knowledge.OpKindOf(qualified(fn, fn.Pkg().Path())),
	}}
}

// interfaceMethod returns the method of a named interface type that call
// invokes through dynamic dispatch, or nil.
func interfaceMethod(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	recv := named.Recv(fn)
	if recv == nil {
		return nil
	}
	if _, ok := recv.Type().Underlying().(*types.Interface); !ok {
		return nil
	}
	if _, ok := types.Unalias(recv.Type()).(*types.Named); !ok {
		return nil
	}
	return fn
}

// slotSends marks, as not waiting, the sends of a select's clauses on a
// channel that the same select receives from: the "take the slot, put it
// back" idiom of a buffered channel used as a one-element store
//
//	select {
//	case v := <-ch: ch <- append(v, e)
//	default:        ch <- []T{e}
//	}
//
// where the receive (or the default taken because the channel was empty)
// leaves room for the send. Measured on a real service whose eviction
// queue is built this way (docs/precision.md).
func slotSends(sel *ast.SelectStmt, inSelect map[ast.Node]bool) {
	received := map[string]bool{}
	for _, st := range sel.Body.List {
		cc, ok := st.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			continue
		}
		if u, ok := commOp(cc.Comm).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			received[types.ExprString(u.X)] = true
		}
	}
	if len(received) == 0 {
		return
	}
	for _, st := range sel.Body.List {
		cc, ok := st.(*ast.CommClause)
		if !ok {
			continue
		}
		for _, b := range cc.Body {
			if send, ok := b.(*ast.SendStmt); ok && received[types.ExprString(send.Chan)] {
				inSelect[send] = true
			}
		}
	}
}

// isBuiltin says whether fun names the predeclared function name.
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// semaphoreChan reports whether ch (a struct field or a package-level
// variable) is taken like a semaphore somewhere in the package: a send on
// it that is not in a loop and not in a go statement's function, as in
// func (s *slots) acquire() { s.sem <- struct{}{} }. A dropped receive on
// such a channel gives a slot back and finds the element a take put there;
// a token bucket's filler sends in a loop, and a hand-off sends from
// another goroutine, so their receives stay waits.
func (r *runner) semaphoreChan(ch ast.Expr) bool {
	obj := chanObject(r.pass.TypesInfo, ch)
	if obj == nil {
		return false
	}
	if r.semChans == nil {
		r.semChans = map[types.Object]bool{}
		var walk func(n ast.Node, inLoop bool)
		walk = func(n ast.Node, inLoop bool) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt:
					return false
				case *ast.ForStmt:
					walk(n.Body, true)
					return false
				case *ast.RangeStmt:
					walk(n.Body, true)
					return false
				case *ast.FuncLit:
					walk(n.Body, false)
					return false
				case *ast.SendStmt:
					if o := chanObject(r.pass.TypesInfo, n.Chan); o != nil && !inLoop {
						r.semChans[o] = true
					}
				}
				return true
			})
		}
		for _, f := range r.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					walk(fd.Body, false)
				}
			}
		}
	}
	return r.semChans[obj]
}

// chanObject is the struct field or package-level variable ch names.
func chanObject(info *types.Info, ch ast.Expr) types.Object {
	var id *ast.Ident
	switch e := ast.Unparen(ch).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil || !v.IsField() && v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return v
}

// calledArgs returns the arguments of call given to parameter j: the one
// at j, or every argument from j on when j is a variadic parameter given
// its elements one by one.
func calledArgs(info *types.Info, call *ast.CallExpr, j int) []ast.Expr {
	if j >= len(call.Args) {
		return nil
	}
	var sig *types.Signature
	if t := info.TypeOf(call.Fun); t != nil {
		sig, _ = t.Underlying().(*types.Signature)
	}
	if sig != nil && sig.Variadic() && j == sig.Params().Len()-1 && !call.Ellipsis.IsValid() {
		return call.Args[j:]
	}
	return call.Args[j : j+1]
}
