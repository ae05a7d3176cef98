package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Joins (wg.Wait(), g.Wait(), singleflight's Do) are SIO005's, decided in
// internal/rules (wait.go: MarkJoins, JoinWait); this is what the analyzer
// hands them: the work a function runs, as items (funcWork), and what an
// item of that work leads to (resolve).

// markJoins attaches the joined work to the join waits among items
// (rules.Pkg.MarkJoins).
func (s *scanned) markJoins(items []paths.Item, body *ast.BlockStmt, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later) {
	s.view.rules.MarkJoins(items, body, func(e ast.Expr, call *ast.CallExpr) ([]paths.Item, bool) {
		return s.funcWork(e, flow, gorm, later, call)
	})
}

// funcWork returns the items of running the function e: a literal's body,
// a named function's item, or, for a go statement's call, the call itself.
// known is false for a function value of unknown origin.
func (s *scanned) funcWork(e ast.Expr, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later, call *ast.CallExpr) ([]paths.Item, bool) {
	info := s.view.pass.TypesInfo
	if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		sig, _ := info.TypeOf(lit).(*types.Signature)
		return s.collect(sig, lit.Body), true
	}
	if call != nil {
		if typeutil.StaticCallee(info, call) == nil {
			return nil, false
		}
		if it, ok := s.classifyCall(call, flow, gorm, later, false); ok {
			if it.Also != nil {
				return []paths.Item{it, *it.Also}, true
			}
			return []paths.Item{it}, true
		}
		return nil, true
	}
	if fn := funcRef(info, e); fn != nil {
		if it, ok := s.refItem(fn, e.Pos(), e.End(), nil); ok {
			return []paths.Item{it}, true
		}
		return nil, true
	}
	return nil, false
}

// joinWait is the SIO005 path of a join over the work it waits for
// (rules.Pkg.JoinWait), nil when the join is silent.
func (r *runner) joinWait(it paths.Item) *paths.Finding {
	return r.view.rules.JoinWait(it, r.resolve, func(it paths.Item) bool { return r.scanned.ctxs.IdleCallee(it, r.byFunc) })
}
