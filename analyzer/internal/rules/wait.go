package rules

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO005 uncancellable-wait: a wait the request cannot end. This file
// decides the waits of the tables (time.Sleep, WaitGroup.Wait, …;
// TableWait) and the channel operations of one body, and the joins
// (MarkJoins, JoinWait: see Joins below), judged by the work they join
// with what the analyzer resolves that work to.

// WaitFlow holds what the channel rules need to know of one body: which
// Done channels are escapes, which sends came first (a semaphore's take),
// which channels are unbuffered and which receives are dropped.
type WaitFlow struct {
	p    *Pkg
	info *types.Info
	flow *dataflow.Ctx
	// on is false in third-party code: its channel operations are the
	// library's own synchronisation (a buffer it just filled, a generator
	// goroutine); its waits on the outside world are I/O, which the
	// tables describe.
	on bool
	// inSelect marks the channel operations of select cases, and sends
	// that a receive of the same select made room for (slotSends).
	inSelect map[ast.Node]bool
	// doneVars: x.Done() is the cancellation escape, and so are local
	// variables holding it (done := ctx.Done()), unless x is a context
	// that does not derive from the request's (context.Background(), a
	// timeout derived from it): waiting on that is a wait the request
	// cannot end. A Done of unknown origin (a field, a parameter, a type
	// that is no context) is an escape.
	doneVars map[types.Object]dataflow.CtxInfo
	// sent holds, per channel expression, the first send on it in body: a
	// later receive on the same channel is the release of a semaphore slot
	// the function took (sem <- struct{}{}; defer func() { <-sem }()), and
	// finds the element the send put there. Sends in other goroutines (or
	// closures that may run in one) put nothing there for this function,
	// and an unbuffered channel made here keeps nothing at all.
	sent       map[string]token.Pos
	unbuffered map[types.Object]bool
	// discardedRecv are receives whose value is dropped (<-ch as a
	// statement): the shape of a semaphore release.
	discardedRecv map[*ast.UnaryExpr]bool
}

func (p *Pkg) NewWaitFlow(body *ast.BlockStmt, flow *dataflow.Ctx) *WaitFlow {
	info := p.Info
	w := &WaitFlow{
		p: p, info: info, flow: flow, on: !p.ThirdParty,
		inSelect: map[ast.Node]bool{}, doneVars: map[types.Object]dataflow.CtxInfo{}, sent: map[string]token.Pos{},
		unbuffered: map[types.Object]bool{}, discardedRecv: map[*ast.UnaryExpr]bool{},
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if k := types.ExprString(n.Chan); w.sent[k] == token.NoPos || n.Pos() < w.sent[k] {
				w.sent[k] = n.Pos()
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				break
			}
			for i, rhs := range n.Rhs {
				id, isID := n.Lhs[i].(*ast.Ident)
				if !isID {
					continue
				}
				if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && len(call.Args) == 1 && isBuiltin(info, call.Fun, "make") {
					w.unbuffered[info.ObjectOf(id)] = true
				}
				if isDoneCall(rhs) {
					if obj := info.ObjectOf(id); obj != nil {
						w.doneVars[obj] = dataflow.Meet(w.doneVars[obj], w.doneOf(rhs))
					}
				}
			}
		case *ast.ExprStmt:
			if u, ok := ast.Unparen(n.X).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				w.discardedRecv[u] = true
			}
		}
		return true
	})
	return w
}

// doneOf classifies x.Done(): CtxDropped when x is a context the request
// cannot cancel, CtxRequest otherwise, and CtxUnset for no Done call.
func (w *WaitFlow) doneOf(e ast.Expr) dataflow.CtxInfo {
	if !isDoneCall(e) {
		return dataflow.CtxInfo{}
	}
	sel := ast.Unparen(ast.Unparen(e).(*ast.CallExpr).Fun).(*ast.SelectorExpr)
	if ci := w.flow.Classify(sel.X); ci.Class == dataflow.CtxDropped {
		return ci
	}
	return dataflow.CtxInfo{Class: dataflow.CtxRequest}
}

// isDone says whether e is a Done channel: class CtxRequest for an
// escape, CtxDropped for the Done of a context the request cannot
// cancel, CtxUnset for any other channel.
func (w *WaitFlow) isDone(e ast.Expr) dataflow.CtxInfo {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		ci := w.doneVars[w.info.ObjectOf(id)]
		if ci.Class == dataflow.CtxUnknown {
			ci.Class = dataflow.CtxRequest // assigned from both: no guessing
		}
		return ci
	}
	return w.doneOf(e)
}

// releases reports whether a receive on ch gives back a slot this body
// took by an earlier send on a buffered channel.
func (w *WaitFlow) releases(ch ast.Expr) bool {
	p, ok := w.sent[types.ExprString(ch)]
	if id, isID := ast.Unparen(ch).(*ast.Ident); isID && w.unbuffered[w.info.ObjectOf(id)] {
		return false
	}
	return ok && p < ch.Pos()
}

// SelectStmt marks the select's channel operations (the walk visits them
// next) and reports a select with no escape: no default, no Done case of
// the request's context.
func (w *WaitFlow) SelectStmt(n *ast.SelectStmt) (paths.Item, bool) {
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
			w.inSelect[op] = true
			if u, ok := op.(*ast.UnaryExpr); ok {
				switch ci := w.isDone(u.X); ci.Class {
				case dataflow.CtxRequest:
					escape = true
				case dataflow.CtxDropped:
					dropped = ci.Desc
				}
			}
		}
	}
	slotSends(n, w.inSelect)
	if !w.on || escape {
		return paths.Item{}, false
	}
	detail := "has no ctx.Done() case and no default, so it waits with no way to cancel"
	hint := "add a case <-ctx.Done() that returns ctx.Err()"
	if dropped != "" {
		detail = "has no default, and its Done() case is on " + dropped +
			", not on the request's context, so the request cannot cancel the wait"
		hint = "derive that context from the request's (or add a case <-ctx.Done() on it) and return ctx.Err()"
	}
	return w.p.Term("SIO005", n.Select, n.Select+token.Pos(len("select")), "select", detail, hint), true
}

// Send reports a send outside a select.
func (w *WaitFlow) Send(n *ast.SendStmt) (paths.Item, bool) {
	if !w.on || w.inSelect[n] {
		return paths.Item{}, false
	}
	return w.p.Term("SIO005", n.Pos(), n.End(), "channel send",
		"waits with no ctx.Done() escape", "send in a select with a case <-ctx.Done()"), true
}

// Receive reports a receive outside a select, unless it releases a slot
// (taken above, or by a helper's semaphore) or is a Done escape.
func (w *WaitFlow) Receive(n *ast.UnaryExpr) (paths.Item, bool) {
	if !w.on || n.Op != token.ARROW || w.inSelect[n] {
		return paths.Item{}, false
	}
	if w.releases(n.X) {
		return paths.Item{}, false // the release of a slot taken above
	}
	if w.discardedRecv[n] && w.p.semaphoreChan(n.X) {
		return paths.Item{}, false // a release helper: func (s *slots) release() { <-s.sem }
	}
	switch ci := w.isDone(n.X); ci.Class {
	case dataflow.CtxUnset:
		return w.p.Term("SIO005", n.Pos(), n.End(), "channel receive",
			"waits with no ctx.Done() escape", "receive in a select with a case <-ctx.Done()"), true
	case dataflow.CtxDropped:
		return w.p.Term("SIO005", n.Pos(), n.End(), "channel receive",
			"waits on the Done() of "+ci.Desc+", which the request cannot cancel",
			"derive that context from the request's"), true
	}
	return paths.Item{}, false
}

// TableWait is the item of a call matched by a wait row (time.Sleep,
// WaitGroup.Wait, …); known says a row matched, whether or not it makes
// an item.
func (p *Pkg) TableWait(key string, mk func(rule, name, detail, hint string) paths.Item) (it paths.Item, ok, known bool) {
	hint, found := p.Waits[key]
	if !found {
		return paths.Item{}, false, false
	}
	if p.ThirdParty && key == "sync.(*Cond).Wait" {
		// Like its channels, a dependency's condition variable is its
		// own in-memory synchronisation (a concurrent map waiting out
		// a resize), not a wait on the outside world.
		return paths.Item{}, false, true
	}
	return mk("SIO005", key, "waits with no way to cancel it", hint), true, true
}

// RangeStmt reports a range over a channel.
func (w *WaitFlow) RangeStmt(n *ast.RangeStmt) (paths.Item, bool) {
	t := w.info.TypeOf(n.X)
	if !w.on || t == nil {
		return paths.Item{}, false
	}
	if _, ok := t.Underlying().(*types.Chan); !ok {
		return paths.Item{}, false
	}
	return w.p.Term("SIO005", n.For, n.X.End(), "range over channel",
		"waits with no ctx.Done() escape", "receive in a loop around a select with a case <-ctx.Done()"), true
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

// semaphoreChan reports whether ch (a struct field or a package-level
// variable) is taken like a semaphore somewhere in the package: a send on
// it that is not in a loop and not in a go statement's function, as in
// func (s *slots) acquire() { s.sem <- struct{}{} }. A dropped receive on
// such a channel gives a slot back and finds the element a take put there;
// a token bucket's filler sends in a loop, and a hand-off sends from
// another goroutine, so their receives stay waits.
func (p *Pkg) semaphoreChan(ch ast.Expr) bool {
	obj := chanObject(p.Info, ch)
	if obj == nil {
		return false
	}
	if p.semChans == nil {
		p.semChans = map[types.Object]bool{}
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
					if o := chanObject(p.Info, n.Chan); o != nil && !inLoop {
						p.semChans[o] = true
					}
				}
				return true
			})
		}
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					walk(fd.Body, false)
				}
			}
		}
	}
	return p.semChans[obj]
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

// isBuiltin says whether fun names the predeclared function name.
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// Joins. A WaitGroup or errgroup Wait, or a singleflight Do, in a
// dependency module waits for work the library started itself: when that
// work does no blocking I/O (parallel image resizing, a token signed once
// for concurrent callers, a copy helper's concurrent branch), the wait is
// as short as the computation and is no SIO005. When the work is unknown
// (the function starts no goroutine, or starts a function value of
// unknown origin, not a local assigned once from a literal), the wait
// stays, unless it waits on a struct field
// (u.wg.Wait()) whose Add calls sit in functions of the package that start
// known work: then that work is what it joins. In first-party code a
// WaitGroup or errgroup join is judged by whether its work stops with the
// request (uncancellable): silent when every goroutine's I/O takes a
// context (bare channel operations are their hand-over, no wait),
// reported naming the operation that does not; a singleflight waiter is
// always reported.

// The SIO005 waits judged by the work they join are the wait rows with a
// joins field (knowledge.JoinWaits, by table key): true when the work is
// the goroutines the function starts (go statements and the go rows'
// calls, knowledge.GoStarters: errgroup's Go and TryGo, the worker pools'
// Submit and Go), false when it is the call's own function arguments
// (singleflight's Do, pond's SubmitAndWait).

// Work returns the items of running the function e: a literal's body, a
// named function's item, or, with call (a go statement's), the call
// itself; turning a body into items is the analyzer's. known is false for
// a function value of unknown origin.
type Work func(e ast.Expr, call *ast.CallExpr) (items []paths.Item, known bool)

// joinedWork returns the items of the work a function body starts in
// goroutines: the bodies of its go statements (a called literal's body,
// or the called function) and the functions given to the go rows' calls
// (errgroup's Go, a worker pool's Submit), in any literal of the body.
// known is false when the body starts none, or one whose function is a
// value of unknown origin: then what the wait joins is unknown.
func (p *Pkg) joinedWork(body *ast.BlockStmt, work Work) (out []paths.Item, known bool) {
	known = true
	started := false
	add := func(items []paths.Item, ok bool) {
		started = true
		out = append(out, items...)
		known = known && ok
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			if lit := localLit(p.Info, body, n.Call.Fun); lit != nil {
				// work := func(…) {…}; go work(…): argon2's processSegment.
				add(work(lit, nil))
				break
			}
			add(work(n.Call.Fun, n.Call))
		case *ast.CallExpr:
			if fn := typeutil.StaticCallee(p.Info, n); fn != nil && fn.Pkg() != nil &&
				knowledge.GoStarters()[knowledge.Qualified(fn.Origin(), fn.Pkg().Path())] {
				for _, a := range n.Args {
					if t := p.Info.TypeOf(a); t == nil {
						continue
					} else if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
						continue // pond's SubmitBefore deadline: no work, and no unknown work either
					}
					add(work(a, nil))
				}
			}
		}
		return true
	})
	return out, known && started
}

// localLit returns the func literal a local variable named by e holds,
// when the body assigns it exactly once, from that literal (work :=
// func(…) {…}); else nil.
func localLit(info *types.Info, body *ast.BlockStmt, e ast.Expr) *ast.FuncLit {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
		return nil
	}
	var lit *ast.FuncLit
	n := 0
	assign := func(lhs, rhs ast.Expr) {
		if l, ok := ast.Unparen(lhs).(*ast.Ident); ok && info.ObjectOf(l) == v {
			n++
			lit, _ = ast.Unparen(rhs).(*ast.FuncLit)
		}
	}
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				if len(x.Lhs) == len(x.Rhs) {
					assign(lhs, x.Rhs[i])
				} else {
					assign(lhs, nil)
				}
			}
		case *ast.ValueSpec:
			for i, name := range x.Names {
				if len(x.Names) == len(x.Values) {
					assign(name, x.Values[i])
				} else if info.ObjectOf(name) == v {
					n++ // declared without a value, or from a multi-value call
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if l, ok := ast.Unparen(x.X).(*ast.Ident); ok && info.ObjectOf(l) == v {
					n++ // its address escapes: anything may be stored there
				}
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return lit
}

// MarkJoins attaches the joined work to the join waits among items (of
// body), when that work is known: the goroutines body starts, or a
// singleflight Do's function arguments in a dependency module.
func (p *Pkg) MarkJoins(items []paths.Item, body *ast.BlockStmt, work Work) {
	var started []paths.Item
	computed, known := false, false
	for i := range items {
		it := &items[i]
		if it.Term == nil || it.Term.Rule != "SIO005" || it.Call == nil {
			continue
		}
		byGo, ok := knowledge.JoinWaits()[it.Term.Chain[0]]
		if !ok || (!byGo && !p.ThirdParty) {
			// A first-party singleflight waiter cannot cancel its wait
			// whatever the leader's work honours.
			continue
		}
		if !byGo {
			var joined []paths.Item
			argsKnown := true
			for _, a := range it.Call.Args {
				if t := p.Info.TypeOf(a); t == nil {
					continue
				} else if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
					continue
				}
				w, ok := work(a, nil)
				joined = append(joined, w...)
				argsKnown = argsKnown && ok
			}
			it.Joined, it.Join = argsKnown, joined
			continue
		}
		if !computed {
			started, known = p.joinedWork(body, work)
			computed = true
		}
		it.Joined, it.Join = known, started
		if !known {
			// u.wg.Wait() joining goroutines that another method started
			// after u.wg.Add: the work is what those methods start.
			if w, ok := p.fieldJoins(it.Call, work); ok {
				it.Joined, it.Join = true, w
			}
		}
	}
}

// fieldJoins returns the work joined by a Wait on a struct field
// (s.wg.Wait()): the goroutines started by the package's functions that
// call Add on the same field. ok is false when the receiver is no field,
// when no function adds to it, or when some of that work is unknown.
func (p *Pkg) fieldJoins(call *ast.CallExpr, work Work) (joined []paths.Item, ok bool) {
	info := p.Info
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return nil, false
	}
	recv, isSel := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !isSel {
		return nil, false
	}
	field, _ := info.Uses[recv.Sel].(*types.Var)
	if field == nil || !field.IsField() || p.joining[field] {
		// Already being joined: a goroutine that waits on the field,
		// started by a function that adds to it (hashicorp/go-plugin's
		// Client.Start), is no more known the second time round.
		return nil, false
	}
	if p.joining == nil {
		p.joining = map[*types.Var]bool{}
	}
	p.joining[field] = true
	defer delete(p.joining, field)
	adds := func(body ast.Node) bool {
		found := false
		ast.Inspect(body, func(n ast.Node) bool {
			c, isCall := n.(*ast.CallExpr)
			if !isCall || found {
				return !found
			}
			if s, isSel := ast.Unparen(c.Fun).(*ast.SelectorExpr); isSel && s.Sel.Name == "Add" {
				if x, isSel := ast.Unparen(s.X).(*ast.SelectorExpr); isSel && info.Uses[x.Sel] == field {
					found = true
				}
			}
			return true
		})
		return found
	}
	any := false
	for _, f := range p.Files {
		for _, d := range f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Body == nil || !adds(fd.Body) {
				continue
			}
			w, known := p.joinedWork(fd.Body, work)
			if !known {
				return nil, false
			}
			any = true
			joined = append(joined, w...)
		}
	}
	return joined, any
}

// joinBlocks reports whether joined work leads to blocking I/O: a SIO001,
// SIO002, SIO004 or SIO006 operation, context-aware I/O, or a call through
// an interface (whose target is unknown here). Rules switched off still
// block.
func joinBlocks(items []paths.Item, resolve func(paths.Item) *paths.Finding, idle func(paths.Item) bool) bool {
	for _, it := range items {
		if it.Dyn != nil && !it.Dyn.Dep {
			return true
		}
		f := resolve(it)
		if f == nil {
			continue
		}
		for _, p := range f.All() {
			switch p.Rule {
			case "SIO002":
				// go worker(ctx) with a detached ctx: evidence of I/O only
				// when the worker itself does any (zstd's stream decoder
				// only decodes).
				if !idle(it) {
					return true
				}
			case "", "SIO001", "SIO004", "SIO006":
				return true
			}
		}
	}
	return false
}

// uncancellable returns the first operation of joined first-party work
// that does not stop with the request's context: a SIO001, SIO002 or
// SIO005 operation, or a call through an interface given no context. Work
// whose I/O all takes a context (errgroup.WithContext's, or the request's
// captured by the goroutines) returns soon after the request ends, so the
// join waits no longer than that. nil means the join is cancellable.
func (p *Pkg) uncancellable(items []paths.Item, resolve func(paths.Item) *paths.Finding) *paths.Finding {
	for _, it := range items {
		if it.Dyn != nil {
			if it.Call != nil && len(it.Call.Args) > 0 && named.IsContext(p.Info.TypeOf(it.Call.Args[0])) {
				continue
			}
			return &paths.Finding{Chain: []string{it.Dyn.Chain[0]}, Sites: []string{p.Site(it.Pos)}}
		}
		f := resolve(it)
		if f == nil {
			continue
		}
		for _, g := range f.All() {
			switch g.Rule {
			case "SIO005":
				if coordination[g.Chain[len(g.Chain)-1]] {
					continue
				}
				return g
			case "SIO001", "SIO002":
				return g
			}
		}
	}
	return nil
}

// coordination are the SIO005 operations on bare channels. In the work a
// first-party join waits for, they are how the goroutines hand work and
// results to each other and to the function that joins them (a CPU
// worker pool ranging over its jobs channel until the function closes
// it), not a wait on the outside world, as in a dependency's code.
var coordination = map[string]bool{
	"channel send": true, "channel receive": true, "range over channel": true, "select": true,
}

// joinHint is the fix for a join over goroutines that ignore the request's
// context: bound every goroutine by one derived from it, so the join
// returns soon after the request ends and nothing is left running.
const joinHint = "use errgroup.WithContext(ctx) and pass its context to every goroutine's I/O (each returns when it is done), or make each goroutine select on ctx.Done()"

// JoinWait is the SIO005 path of a join (wg.Wait(), g.Wait()) over the
// goroutines the body starts: nil when every one stops with the request's
// context, or, in a dependency, when none does blocking I/O. resolve is
// what an item of the joined work leads to (the analyzer's), and idle
// whether a SIO002 item's callee of this package does no I/O
// (Contexts.IdleCallee).
func (p *Pkg) JoinWait(it paths.Item, resolve func(paths.Item) *paths.Finding, idle func(paths.Item) bool) *paths.Finding {
	if p.ThirdParty {
		if !joinBlocks(it.Join, resolve, idle) {
			return nil // a dependency joining work that does no blocking I/O
		}
		return it.Term
	}
	u := p.uncancellable(it.Join, resolve)
	if u == nil {
		return nil // every goroutine joined stops with the request's context
	}
	g := *it.Term
	g.Detail = "waits for goroutines that do not stop with the request's context (" +
		u.Chain[len(u.Chain)-1] + " at " + paths.ShortSite(u.Sites[len(u.Sites)-1]) + ")"
	g.Hint = joinHint
	return &g
}
