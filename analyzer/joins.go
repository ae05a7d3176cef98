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
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// Joins in dependency modules. A WaitGroup or errgroup Wait, or a
// singleflight Do, waits for work the library started itself: when that
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

// joinWaits are the SIO005 waits judged by the work they join, by table
// key: true when the work is the goroutines the function starts (go
// statements, errgroup's Go and TryGo), false when it is the call's own
// function arguments (singleflight's Do).
var joinWaits = map[string]bool{
	"sync.(*WaitGroup).Wait":                     true,
	"golang.org/x/sync/errgroup.(*Group).Wait":   true,
	"golang.org/x/sync/singleflight.(*Group).Do": false,
}

// goStarters are the calls that run their function arguments in new
// goroutines.
var goStarters = map[string]bool{
	"golang.org/x/sync/errgroup.(*Group).Go":    true,
	"golang.org/x/sync/errgroup.(*Group).TryGo": true,
}

// joinedWork returns the items of the work a function body starts in
// goroutines: the bodies of its go statements (a called literal's body,
// or the called function) and the functions given to errgroup's Go, in any
// literal of the body. known is false when the body starts none, or one
// whose function is a value of unknown origin: then what the wait joins
// is unknown.
func (r *scanned) joinedWork(body *ast.BlockStmt, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later) (out []paths.Item, known bool) {
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
			if lit := localLit(r.pass.TypesInfo, body, n.Call.Fun); lit != nil {
				// work := func(…) {…}; go work(…): argon2's processSegment.
				add(r.funcWork(lit, flow, gorm, later, nil))
				break
			}
			add(r.funcWork(n.Call.Fun, flow, gorm, later, n.Call))
		case *ast.CallExpr:
			if fn := typeutil.StaticCallee(r.pass.TypesInfo, n); fn != nil && fn.Pkg() != nil &&
				goStarters[knowledge.Qualified(fn.Origin(), fn.Pkg().Path())] {
				for _, a := range n.Args {
					add(r.funcWork(a, flow, gorm, later, nil))
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

// funcWork returns the items of running the function e: a literal's body,
// a named function's item, or, for a go statement's call, the call itself.
// known is false for a function value of unknown origin.
func (r *scanned) funcWork(e ast.Expr, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later, call *ast.CallExpr) ([]paths.Item, bool) {
	info := r.pass.TypesInfo
	if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		sig, _ := info.TypeOf(lit).(*types.Signature)
		return r.collect(sig, lit.Body), true
	}
	if call != nil {
		if typeutil.StaticCallee(info, call) == nil {
			return nil, false
		}
		if it, ok := r.classifyCall(call, flow, gorm, later, false); ok {
			if it.Also != nil {
				return []paths.Item{it, *it.Also}, true
			}
			return []paths.Item{it}, true
		}
		return nil, true
	}
	if fn := funcRef(info, e); fn != nil {
		if it, ok := r.refItem(fn, e.Pos(), e.End(), nil); ok {
			return []paths.Item{it}, true
		}
		return nil, true
	}
	return nil, false
}

// markJoins attaches the joined work to the join waits among items, in a
// dependency module only, when that work is known.
func (r *scanned) markJoins(items []paths.Item, body *ast.BlockStmt, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later) {
	var started []paths.Item
	computed, known := false, false
	for i := range items {
		it := &items[i]
		if it.Term == nil || it.Term.Rule != "SIO005" || it.Call == nil {
			continue
		}
		byGo, ok := joinWaits[it.Term.Chain[0]]
		if !ok || (!byGo && !r.thirdParty) {
			// A first-party singleflight waiter cannot cancel its wait
			// whatever the leader's work honours.
			continue
		}
		if !byGo {
			var work []paths.Item
			argsKnown := true
			for _, a := range it.Call.Args {
				if t := r.pass.TypesInfo.TypeOf(a); t == nil {
					continue
				} else if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
					continue
				}
				w, ok := r.funcWork(a, flow, gorm, later, nil)
				work = append(work, w...)
				argsKnown = argsKnown && ok
			}
			it.Joined, it.Join = argsKnown, work
			continue
		}
		if !computed {
			started, known = r.joinedWork(body, flow, gorm, later)
			computed = true
		}
		it.Joined, it.Join = known, started
		if !known {
			// u.wg.Wait() joining goroutines that another method started
			// after u.wg.Add: the work is what those methods start.
			if w, ok := r.fieldJoins(it.Call, flow, gorm, later); ok {
				it.Joined, it.Join = true, w
			}
		}
	}
}

// joinBlocks reports whether joined work leads to blocking I/O: a SIO001,
// SIO002, SIO004 or SIO006 operation, context-aware I/O, or a call through
// an interface (whose target is unknown here). Rules switched off still
// block.
func (r *runner) joinBlocks(items []paths.Item) bool {
	for _, it := range items {
		if it.Dyn != nil && !it.Dyn.Dep {
			return true
		}
		f := r.resolve(it)
		if f == nil {
			continue
		}
		for _, p := range f.All() {
			switch p.Rule {
			case "SIO002":
				// go worker(ctx) with a detached ctx: evidence of I/O only
				// when the worker itself does any (zstd's stream decoder
				// only decodes).
				if !r.idleCallee(it) {
					return true
				}
			case "", "SIO001", "SIO004", "SIO006":
				return true
			}
		}
	}
	return false
}

// fieldJoins returns the work joined by a Wait on a struct field
// (s.wg.Wait()): the goroutines started by the package's functions that
// call Add on the same field. ok is false when the receiver is no field,
// when no function adds to it, or when some of that work is unknown.
func (r *scanned) fieldJoins(call *ast.CallExpr, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later) (work []paths.Item, ok bool) {
	info := r.pass.TypesInfo
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel {
		return nil, false
	}
	recv, isSel := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !isSel {
		return nil, false
	}
	field, _ := info.Uses[recv.Sel].(*types.Var)
	if field == nil || !field.IsField() {
		return nil, false
	}
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
	for _, f := range r.pass.Files {
		for _, d := range f.Decls {
			fd, isFunc := d.(*ast.FuncDecl)
			if !isFunc || fd.Body == nil || !adds(fd.Body) {
				continue
			}
			w, known := r.joinedWork(fd.Body, flow, gorm, later)
			if !known {
				return nil, false
			}
			any = true
			work = append(work, w...)
		}
	}
	return work, any
}

// idleCallee reports whether a SIO002 operation calls a function of this
// package whose summary shows no I/O: the context it drops reaches nothing.
func (r *runner) idleCallee(it paths.Item) bool {
	if it.Term == nil || it.Call == nil {
		return false
	}
	fn := typeutil.StaticCallee(r.pass.TypesInfo, it.Call)
	if fn == nil || fn.Pkg() != r.pass.Pkg {
		return false
	}
	s := r.byFunc[fn.Origin()]
	return s != nil && s.Root == resolve.NotRoot && s.Result == nil && !paths.OwnDyn(s.Dyn)
}

// opaqueItem reports whether an item passes a context to a call the
// analysis cannot follow, itself or through its callee.
func (r *runner) opaqueItem(it paths.Item) bool {
	switch {
	case it.Opaque:
		return true
	case it.Ext != nil:
		return it.Ext.Opaque || (it.Ext.OpaqueMemory && !r.memoryIdle())
	case it.Local != nil:
		callee := r.byFunc[it.Local]
		return callee != nil && callee.Root == resolve.NotRoot && (callee.Opaque || (callee.MemOpaque && !r.memoryIdle()))
	}
	return false
}

// memOpaqueItem reports whether an item hands a context to a memory row's
// function, itself or through its callee (paths.BlocksFact.OpaqueMemory).
func (r *runner) memOpaqueItem(it paths.Item) bool {
	switch {
	case it.Ext != nil:
		return it.Ext.OpaqueMemory
	case it.Local != nil:
		callee := r.byFunc[it.Local]
		return callee != nil && callee.Root == resolve.NotRoot && callee.MemOpaque
	}
	return false
}

// uncancellable returns the first operation of joined first-party work
// that does not stop with the request's context: a SIO001, SIO002 or
// SIO005 operation, or a call through an interface given no context. Work
// whose I/O all takes a context (errgroup.WithContext's, or the request's
// captured by the goroutines) returns soon after the request ends, so the
// join waits no longer than that. nil means the join is cancellable.
func (r *runner) uncancellable(items []paths.Item) *paths.Finding {
	for _, it := range items {
		if it.Dyn != nil {
			if it.Call != nil && len(it.Call.Args) > 0 && named.IsContext(r.pass.TypesInfo.TypeOf(it.Call.Args[0])) {
				continue
			}
			return &paths.Finding{Chain: []string{it.Dyn.Chain[0]}, Sites: []string{r.site(it.Pos)}}
		}
		f := r.resolve(it)
		if f == nil {
			continue
		}
		for _, p := range f.All() {
			switch p.Rule {
			case "SIO005":
				if coordination[p.Chain[len(p.Chain)-1]] {
					continue
				}
				return p
			case "SIO001", "SIO002":
				return p
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

// joinWait is the SIO005 path of a join (wg.Wait(), g.Wait()) over the
// goroutines the body starts: nil when every one stops with the request's
// context, or, in a dependency, when none does blocking I/O.
func (r *runner) joinWait(it paths.Item) *paths.Finding {
	if r.thirdParty {
		if !r.joinBlocks(it.Join) {
			return nil // a dependency joining work that does no blocking I/O
		}
		return it.Term
	}
	u := r.uncancellable(it.Join)
	if u == nil {
		return nil // every goroutine joined stops with the request's context
	}
	g := *it.Term
	g.Detail = "waits for goroutines that do not stop with the request's context (" +
		u.Chain[len(u.Chain)-1] + " at " + paths.ShortSite(u.Sites[len(u.Sites)-1]) + ")"
	g.Hint = joinHint
	return &g
}
