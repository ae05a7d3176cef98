package rules

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO001 blocking-call: I/O with no request context that has a variant
// taking one. The calls are the rows of knowledge's blocking table (and
// the user's), matched in the analyzer's classifyCall by key or by an
// interface method's declaration; a row silenced later (the request's
// context attached one call down, a detached daemon) is dataflow.Later's;
// gorm's chains are judged here by the chain before the finisher.

// Blocking is the SIO001 item of a call matched by a blocking row.
// use and verb are the row's (Config's Replacement).
func Blocking(key, use, verb string, mk func(rule, name, detail, hint string) paths.Item) paths.Item {
	if verb == "" {
		verb = "blocks without the request context"
	}
	it := mk("SIO001", key, verb, "use "+use)
	it.FixKey = key
	return it
}

// GormFinisher is the item of a gorm finisher (Find, First, Save, …, and
// an association's Find/Append/…), judged by its chain.
func (p *Pkg) GormFinisher(call *ast.CallExpr, fn *types.Func, gorm *dataflow.Chain, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	path := knowledge.GormReceiver(fn)
	finisher := path != "" && dataflow.GormFinishers[fn.Name()]
	if path == "" {
		// db.WithContext(ctx).Model(&u).Association("Roles").Find(&rs):
		// the association runs its query on the chain before it, whatever
		// gorm's own source (a query on the association's stored DB) says.
		path = knowledge.GormAssocReceiver(fn)
		finisher = path != "" && dataflow.GormAssocFinishers[fn.Name()]
	}
	if !finisher {
		return paths.Item{}, false
	}
	return p.GormQuery(call, fn, path, gorm, mk), true
}

// GormQuery is the item of a call that runs a query on a gorm chain (a
// finisher of *gorm.DB or *gorm.Association, a query method of
// gorm.Migrator), judged by the chain before it: SIO001 when it never
// calls WithContext and starts from a stored DB, else context-aware I/O.
func (p *Pkg) GormQuery(call *ast.CallExpr, fn *types.Func, path string, gorm *dataflow.Chain, mk func(rule, name, detail, hint string) paths.Item) paths.Item {
	info := p.Info
	pos, end := call.Pos(), call.End()
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		sel = &ast.SelectorExpr{X: call.Fun} // not a method call as written: unknown
	}
	if path == knowledge.PathGormV1 {
		return mk("SIO001", paths.DisplayName(fn), "runs a query that cannot be cancelled: gorm v1 has no context support",
			"migrate to gorm.io/gorm and chain db.WithContext(ctx), or bound the query with a statement timeout")
	}
	if gorm.State(sel.X, 0) == dataflow.GormNoCtx {
		const detail = "runs a query on a *gorm.DB chain that never calls WithContext, so the request context is not used"
		root := dataflow.GormChainRoot(info, sel.X)
		if !dataflow.IsGormDB(info.TypeOf(root)) {
			// An association or migrator variable: the chain is where it was built.
			return mk("SIO001", paths.DisplayName(fn), detail,
				"build "+types.ExprString(root)+" from a chain that starts with WithContext(ctx)")
		}
		it := mk("SIO001", paths.DisplayName(fn), detail,
			"start the chain with WithContext: "+types.ExprString(root)+".WithContext(ctx)…")
		it.GormRoot = root
		return it
	}
	// With a context (or one we cannot see) the query is still I/O.
	return paths.Item{Pos: pos, End: end, Call: call, Term: &paths.Finding{
		Chain: []string{paths.DisplayName(fn)}, Sites: []string{p.Site(pos)}, Poses: []token.Pos{pos},
		Kind: knowledge.OpKindOf(knowledge.Qualified(fn, fn.Pkg().Path())),
	}}
}

// DbxFinisher is the item of a dbx query's finisher (Execute, One, All,
// …; knowledge.DbxFinisher), judged by the chain before it, as gorm's
// are: dbx's own source tests q.ctx == nil at run time and has both
// branches, so its fact says SIO001 whatever the caller did. A chain that
// calls WithContext is context-aware I/O (a dropped context there is the
// SIO002 of the WithContext call itself); one rooted at a stored builder
// with none is SIO001 here; one the chain cannot tell (a parameter, a
// query returned by another function) is left to dbx's fact. Inside dbx
// its own source decides.
func (p *Pkg) DbxFinisher(call *ast.CallExpr, fn *types.Func, chain *dataflow.Chain, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	if !knowledge.DbxFinisher(fn) || p.Path == knowledge.PathDbx {
		return paths.Item{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return paths.Item{}, false
	}
	switch chain.State(sel.X, 0) {
	case dataflow.GormNoCtx:
		it := mk("SIO001", paths.DisplayName(fn), "runs a dbx query without WithContext, so dbx takes its branch with no context and the request context is not used",
			"give the query the request's context: "+types.ExprString(sel.X)+".WithContext(ctx)."+fn.Name()+"(…)")
		it.GormRoot = sel.X
		return it, true
	case dataflow.GormWithCtx:
		pos := call.Pos()
		return paths.Item{Pos: pos, End: call.End(), Call: call, Term: &paths.Finding{
			Chain: []string{paths.DisplayName(fn)}, Sites: []string{p.Site(pos)}, Poses: []token.Pos{pos},
			Kind: knowledge.OpKindOf(knowledge.Qualified(fn, fn.Pkg().Path())),
		}}, true
	}
	return paths.Item{}, false
}
