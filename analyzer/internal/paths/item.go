package paths

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// Item is one place in a body that may block. It is one of: a blocking
// operation (Term); a call to a function of this package (Local), of
// another package (Ext, its fact), or to a literal called through a value
// (Lit); an interface call (Dyn); a join wait in a dependency (Joined,
// with the work it joins); or a call that leads to nothing but is noted
// (Opaque, Unfollowed). The fields after Dyn qualify any of them.
type Item struct {
	Pos, End token.Pos
	Call     *ast.CallExpr
	Term     *Finding    // direct blocking operation
	Local    *types.Func // same-package callee
	Ext      *BlocksFact // other-package callee that blocks
	Name     string      // callee display name for local/ext
	FixKey   string      // SIO001 table key, for suggested fixes
	FixArg   ast.Expr    // SIO002: context.Background()/TODO() argument to replace
	Lock     string      // a mutex held at the item (SIO003), see regions.Lock
	RecvOwn  Owner       // how the call's receiver relates to the function (locks.go)
	Tx       string      // a transaction open at the item (SIO007), see regions.Tx
	GormRoot ast.Expr    // SIO001 gorm or dbx chain: where .WithContext(ctx) goes
	Dyn      *DynCall    // a call through an interface method
	// Joined marks a join wait whose joined work is known (rules'
	// wait.go, MarkJoins): it blocks only when the work in Join does.
	Joined bool
	Join   []Item
	// Lit is a func literal of this package called through a value (a
	// local, a function's result, a package variable), summarised like a
	// function.
	Lit *ast.FuncLit
	// Opaque marks a call given a context that the analysis cannot follow
	// (an interface method that is not dispatched, a func value): it may
	// do I/O with that context, so a function that makes it is no idle
	// callee for SIO002. It leads to nothing.
	Opaque bool
	// Also is what the same call leads to besides this item: the callee
	// of a call given a framework value as its context (SIO002 there does
	// not hide what the callee blocks on).
	Also *Item
	// Merged marks an item whose paths come from several callees (the
	// bindings dispatch joins): their counts past MaxOps may overlap.
	Merged bool
	// Unfollowed is the site of a call through a func value kept in a
	// field, a map or a package variable that nothing resolves (a
	// generic type's field, a closure chained through one): what runs
	// there is unseen. It leads to nothing; the roots report says so.
	Unfollowed string
	// Once marks an item that runs once per value or key, not per request:
	// in a callback given to sync.(*Once).Do or a memoiser, or in a
	// memoiser's own body. The rules that count per request (the
	// analyzer's onceRules) do not count for it.
	Once bool
	// Bounded marks a call that hands its callee a context or request
	// with a deadline: SIO008 does not pass through it (rules'
	// Deadlines.Mark).
	Bounded bool
	// Guard marks an item that runs only while a context the caller
	// gives is nil (guard.go): a call that gives one does not reach it.
	Guard Guard
	// Fixes are suggested fixes made by another package's pass (a
	// deferred SIO002 candidate's).
	Fixes []analysis.SuggestedFix
	// Reached are the request roots' calls that lead to an item reported
	// away from them: at the interface call where a package above adds
	// operations for a rule that a package below already reported at
	// those calls (join's relocate.go), by rule.
	Reached map[string][]Reach
}

// Reach is a request root's call that leads to a finding reported at
// another place.
type Reach struct {
	Root string    // the root's display name
	Site string    // its call, "file:line:col"
	Pos  token.Pos // NoPos where this pass cannot place Site
}

// Drop removes the items inside the given stretches of a body, [start,
// end): what they lead to is no request's (a stretch that ends the
// process, internal/exits; a getter's first-use construction,
// resolve.FirstUse).
func Drop(items []Item, spans [][2]token.Pos) []Item {
	if len(spans) == 0 {
		return items
	}
	kept := items[:0]
	for _, it := range items {
		in := false
		for _, s := range spans {
			if s[0] <= it.Pos && it.Pos < s[1] {
				in = true
				break
			}
		}
		if !in {
			kept = append(kept, it)
		}
	}
	return kept
}
