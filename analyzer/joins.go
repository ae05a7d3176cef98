package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Joins in dependency modules. A WaitGroup or errgroup Wait, or a
// singleflight Do, waits for work the library started itself: when that
// work does no blocking I/O (parallel image resizing, a token signed once
// for concurrent callers, a copy helper's concurrent branch), the wait is
// as short as the computation and is no SIO005. First-party code keeps
// every such wait.

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
// literal of the body.
func (r *runner) joinedWork(body *ast.BlockStmt, flow *ctxFlow, gorm *gormFlow, later *laterFlow) []item {
	var out []item
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			out = append(out, r.funcWork(n.Call.Fun, flow, gorm, later, n.Call)...)
		case *ast.CallExpr:
			if fn := typeutil.StaticCallee(r.pass.TypesInfo, n); fn != nil && fn.Pkg() != nil &&
				goStarters[qualified(fn.Origin(), fn.Pkg().Path())] {
				for _, a := range n.Args {
					out = append(out, r.funcWork(a, flow, gorm, later, nil)...)
				}
			}
		}
		return true
	})
	return out
}

// funcWork returns the items of running the function e: a literal's body,
// a named function's item, or, for the go statement's call, the call
// itself. A function value of unknown origin gives none: no guessing.
func (r *runner) funcWork(e ast.Expr, flow *ctxFlow, gorm *gormFlow, later *laterFlow, call *ast.CallExpr) []item {
	info := r.pass.TypesInfo
	if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		sig, _ := info.TypeOf(lit).(*types.Signature)
		return r.collect(sig, lit.Body)
	}
	if call != nil {
		if it, ok := r.classifyCall(call, flow, gorm, later); ok {
			return []item{it}
		}
		return nil
	}
	if fn := funcRef(info, e); fn != nil {
		if it, ok := r.refItem(fn, e.Pos(), e.End(), nil); ok {
			return []item{it}
		}
	}
	return nil
}

// markJoins attaches the joined work to the join waits among items, in a
// dependency module only.
func (r *runner) markJoins(items []item, body *ast.BlockStmt, flow *ctxFlow, gorm *gormFlow, later *laterFlow) {
	if !r.thirdParty {
		return
	}
	var started []item
	computed := false
	for i := range items {
		it := &items[i]
		if it.term == nil || it.term.rule != "SIO005" || it.call == nil {
			continue
		}
		byGo, ok := joinWaits[it.term.chain[0]]
		if !ok {
			continue
		}
		it.joined = true
		if !byGo {
			for _, a := range it.call.Args {
				it.join = append(it.join, r.funcWork(a, flow, gorm, later, nil)...)
			}
			continue
		}
		if !computed {
			started, computed = r.joinedWork(body, flow, gorm, later), true
		}
		it.join = started
	}
}

// joinBlocks reports whether joined work leads to blocking I/O: a SIO001,
// SIO002, SIO004 or SIO006 operation, context-aware I/O, or a call through
// an interface (whose target is unknown here). Rules switched off still
// block.
func (r *runner) joinBlocks(items []item) bool {
	for _, it := range items {
		if it.dyn != nil {
			return true
		}
		f := r.resolve(it)
		if f == nil {
			continue
		}
		for _, p := range f.all() {
			switch p.rule {
			case "", "SIO001", "SIO002", "SIO004", "SIO006":
				return true
			}
		}
	}
	return false
}
