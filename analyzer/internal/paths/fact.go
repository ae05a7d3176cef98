package paths

import (
	"fmt"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// BlocksFact is exported for every function outside a request root that
// blocks, directly or through its callees. Callers in other packages read it
// to extend the chain. Positions are "file:line:col" strings because a
// token.Pos means nothing in another package's analysis.
type BlocksFact struct {
	Rule   string   // rule ID of the blocking operation at the end
	Chain  []string // callees after the function, the blocking operation last
	Sites  []string // call site of each Chain entry, inside the previous function
	Detail string   // what the last entry does, e.g. "blocks without the request context"
	Hint   string   // how to fix it
	// Lock, when set, describes a mutex held across the blocking operation
	// inside the chain (SIO003). Rule is "" when the operation is only
	// I/O under that lock, or I/O that a lock in a caller would make SIO003.
	Lock string
	// Tx, when set, describes a database transaction (or pooled
	// connection) open across the operation inside the chain, which is a
	// remote call or a wait, not a query (SIO007). Like Lock, Rule is ""
	// when the operation is only I/O.
	Tx string
	// Kind says what the operation at the end waits on (kinds.txt); it
	// orders a finding's operations (Finding.Better).
	Kind knowledge.OpKind
	// Ref marks a More entry that names its operation only: Chain and
	// Sites hold the operation and its site, not the path to it, and
	// Detail and Hint are empty. Operations past the first MaxTerminals
	// of a rule are kept so (issue 20: facts stay small).
	Ref bool
	// Gin marks an SIO002 path that is a finding only because a
	// *gin.Context is given as the context: whether it holds is the
	// engine's ContextWithFallback's (internal/ginsetting).
	Gin bool
	// Over, on the last entry of a rule, counts the rule's distinct
	// operations beyond the MaxOps the fact names, as the function that
	// dropped them counted them.
	Over int
	// More are the other paths: to operations of other rules (the
	// highest-ranked first), so that a helper that both builds a client
	// and calls http.Get reports both at the root, and to other distinct
	// blocking operations (terminals) of the same rule, so that a helper
	// with db.Query and http.Get shows both. Per rule, in the order of
	// Finding.Better, the main path counting for its rule: the first
	// MaxTerminals with their paths, up to MaxOps in all (the rest as
	// Ref), and Over for the others. They have no More of their own.
	More []BlocksFact
	// Dyn are the calls through interface methods on the function's
	// paths, resolved where the binding is seen (dispatch.go). A fact may
	// carry only Dyn: then Chain is empty.
	Dyn []DynCall
	// Opaque: the function passes a context to a call the analysis cannot
	// follow (an interface method that is not dispatched, a func value),
	// here or in a callee, so it may do I/O with a context it is given
	// (SIO002's factlessIdle). A fact may carry only Opaque.
	Opaque bool
	// Unfollowed is the site of the first call through a func value kept
	// in a field, map or package variable that nothing resolves, here or
	// in a callee: a root that reaches only this is named in the roots
	// report, since what runs behind it is unseen. A fact may carry only
	// Unfollowed.
	Unfollowed string `json:",omitempty"`
	// OpaqueMemory: the contexts it hands to calls the analysis cannot
	// follow go only to memory rows' functions (rules' dropped.go), which
	// count as opaque only where the program hands their library a
	// function taking a context.
	OpaqueMemory bool
	// CtxUnused: the function's first parameter is a context.Context it
	// never reads (rules' dropped.go, ignoresContext): a dropped context
	// given to it reaches nothing, whatever it blocks on with its own. Only
	// a fact exported anyway carries it: a callee without one is idle.
	CtxUnused bool `json:",omitempty"`
	// IfGiven is the fact of the function's items that run whatever its
	// context is, for a call that makes each of Guards false: one that
	// passes the context a nil test in the body is on (guard.go).
	Guards  []Guard     `json:",omitempty"`
	IfGiven *BlocksFact `json:",omitempty"`
}

// AFact marks BlocksFact as an object fact.
func (*BlocksFact) AFact() {}

// String is the fact as the tests' // want lines state it.
func (f *BlocksFact) String() string {
	s := ""
	if len(f.Chain) > 0 {
		s = f.path()
	}
	for _, d := range f.Dyn {
		if s != "" {
			s += " + "
		}
		s += "dyn(" + strings.Join(d.Chain, " → ") + ")"
	}
	for i := range f.More {
		s += " + " + f.More[i].path()
	}
	if f.Opaque {
		if s != "" {
			s += " + "
		}
		s += "opaque"
	}
	if f.Unfollowed != "" {
		if s != "" {
			s += " + "
		}
		s += "unfollowed"
	}
	if f.OpaqueMemory {
		if s != "" {
			s += " + "
		}
		s += "opaque(memory)"
	}
	if f.CtxUnused {
		if s != "" {
			s += " + "
		}
		s += "ctxunused"
	}
	if f.IfGiven != nil {
		var gs []string
		for _, g := range f.Guards {
			gs = append(gs, strings.Join(g, "|"))
		}
		then := f.IfGiven.String()
		if then == "" {
			then = "nothing"
		}
		s += " + given(" + strings.Join(gs, ", ") + ": " + then + ")"
	}
	return s
}

func (f *BlocksFact) path() string {
	s := f.path1()
	if f.Over > 0 {
		s += fmt.Sprintf(" +%d", f.Over)
	}
	return s
}

func (f *BlocksFact) path1() string {
	if f.Ref {
		return fmt.Sprintf("op(%s: %s)", f.Rule, strings.Join(f.Chain, " → "))
	}
	if f.Rule == "" && f.Lock == "" && f.Tx == "" {
		return fmt.Sprintf("io(%s)", strings.Join(f.Chain, " → "))
	}
	if f.Tx != "" {
		return fmt.Sprintf("blocks(%s+SIO007: %s)", f.Rule, strings.Join(f.Chain, " → "))
	}
	if f.Lock != "" {
		return fmt.Sprintf("blocks(%s+SIO003: %s)", f.Rule, strings.Join(f.Chain, " → "))
	}
	return fmt.Sprintf("blocks(%s: %s)", f.Rule, strings.Join(f.Chain, " → "))
}
