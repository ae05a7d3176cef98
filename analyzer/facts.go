package analyzer

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// blocksFact is exported for every function outside a request root that
// blocks, directly or through its callees. Callers in other packages read it
// to extend the chain. Positions are "file:line:col" strings because a
// token.Pos means nothing in another package's analysis.
type blocksFact struct {
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
	// orders a finding's operations (finding.better).
	Kind knowledge.OpKind
	// Ref marks a More entry that names its operation only: Chain and
	// Sites hold the operation and its site, not the path to it, and
	// Detail and Hint are empty. Operations past the first maxTerminals
	// of a rule are kept so (issue 20: facts stay small).
	Ref bool
	// Over, on the last entry of a rule, counts the rule's distinct
	// operations beyond the maxOps the fact names, as the function that
	// dropped them counted them.
	Over int
	// More are the other paths: to operations of other rules (the
	// highest-ranked first), so that a helper that both builds a client
	// and calls http.Get reports both at the root, and to other distinct
	// blocking operations (terminals) of the same rule, so that a helper
	// with db.Query and http.Get shows both. Per rule, in the order of
	// finding.better, the main path counting for its rule: the first
	// maxTerminals with their paths, up to maxOps in all (the rest as
	// Ref), and Over for the others. They have no More of their own.
	More []blocksFact
	// Dyn are the calls through interface methods on the function's
	// paths, resolved where the binding is seen (dispatch.go). A fact may
	// carry only Dyn: then Chain is empty.
	Dyn []dynCall
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
	// follow go only to memory rows' functions (rule_dropped.go), which
	// count as opaque only where the program hands their library a
	// function taking a context.
	OpaqueMemory bool
	// CtxUnused: the function's first parameter is a context.Context it
	// never reads (rule_dropped.go, ignoresContext): a dropped context
	// given to it reaches nothing, whatever it blocks on with its own. Only
	// a fact exported anyway carries it: a callee without one is idle.
	CtxUnused bool `json:",omitempty"`
}

func (*blocksFact) AFact() {}

func (f *blocksFact) String() string {
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
	return s
}

func (f *blocksFact) path() string {
	s := f.path1()
	if f.Over > 0 {
		s += fmt.Sprintf(" +%d", f.Over)
	}
	return s
}

func (f *blocksFact) path1() string {
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

// finding is a blocking path as seen from one call site: the in-memory
// form of blocksFact plus the positions this pass can resolve.
type finding struct {
	rule   string // "" for I/O that is no finding by itself (see blocksFact.Rule)
	lock   string // see blocksFact.Lock
	tx     string // see blocksFact.Tx
	chain  []string
	sites  []string
	poses  []token.Pos // token.NoPos where the site is in a file this pass cannot see
	detail string
	hint   string
	kind   knowledge.OpKind // see blocksFact.Kind
	ref    bool             // see blocksFact.Ref
	over   int              // see blocksFact.Over
	more   []*finding       // other rules' paths from the same function, see blocksFact.More
}

func (f *finding) fact() *blocksFact {
	bf := &blocksFact{Rule: f.rule, Chain: f.chain, Sites: f.sites, Detail: f.detail, Hint: f.hint, Lock: f.lock, Tx: f.tx,
		Kind: f.kind, Ref: f.ref, Over: f.over}
	for _, m := range f.more {
		bf.More = append(bf.More, *m.fact())
	}
	return bf
}

// prepend returns the finding seen from a caller whose call to name at pos
// leads to f.
func (f *finding) prepend(name, site string, pos token.Pos) *finding {
	if f.ref {
		return f // names its operation only, wherever it is seen from
	}
	var more []*finding
	for _, m := range f.more {
		more = append(more, m.prepend(name, site, pos))
	}
	return &finding{
		more:   more,
		rule:   f.rule,
		lock:   f.lock,
		tx:     f.tx,
		chain:  append([]string{name}, f.chain...),
		sites:  append([]string{site}, f.sites...),
		poses:  append([]token.Pos{pos}, f.poses...),
		detail: f.detail,
		hint:   f.hint,
		kind:   f.kind,
		over:   f.over,
	}
}

// all returns f and its other rules' paths, each without more.
func (f *finding) all() []*finding {
	if len(f.more) == 0 {
		return []*finding{f}
	}
	g := *f
	g.more = nil
	return append([]*finding{&g}, f.more...)
}

// maxTerminals bounds the distinct blocking operations per rule that a
// finding's message names, and that a fact keeps with their paths.
const maxTerminals = 4

// maxOps bounds the distinct blocking operations per rule that a
// function's summary and its fact name (maxTerminals with their paths,
// the rest by name and site); the others are only counted (Over).
const maxOps = 16

// asRef returns f reduced to its operation and site (blocksFact.Ref).
func (f *finding) asRef() *finding {
	if f.ref || len(f.chain) == 0 {
		return f
	}
	n := len(f.chain) - 1
	g := &finding{rule: f.rule, lock: f.lock, tx: f.tx, kind: f.kind, over: f.over, ref: true, chain: f.chain[n:]}
	if n < len(f.sites) {
		g.sites = f.sites[n:]
	}
	if n < len(f.poses) {
		g.poses = f.poses[n:]
	}
	return g
}

// betterMain says whether f should replace g as a function's main path
// (fnSummary.result): a higher rank, or, for the same rule, a better
// kind. Between rules of equal rank the first found stays, as each rule
// has its own diagnostic.
func (f *finding) betterMain(g *finding) bool {
	if a, b := f.rank(), g.rank(); a != b {
		return a > b
	}
	return f.rule == g.rule && f.kind.Order() < g.kind.Order()
}

// better orders the operations of one rule: the higher rank first, then
// by kind (remote calls and waits, then databases and caches, then
// unclassified, then local work: knowledge.OpKind.Order). Equals keep the
// order they were found in, source order, which is deterministic.
func (f *finding) better(g *finding) bool {
	if a, b := f.rank(), g.rank(); a != b {
		return a > b
	}
	return f.kind.Order() < g.kind.Order()
}

// terminal identifies the blocking operation a path ends at: its name and
// its site.
func (f *finding) terminal() string {
	n := len(f.chain) - 1
	if n < 0 {
		return ""
	}
	site := ""
	if n < len(f.sites) {
		site = f.sites[n]
	}
	return f.chain[n] + "@" + site
}

// rank orders findings for a function's summary: a rule finding under a
// lock beats a rule finding, which beats I/O under a lock, which beats
// plain I/O; between equals, one across an open transaction wins.
func (f *finding) rank() int {
	n := 0
	if f.rule != "" {
		n += 4
	}
	if f.lock != "" {
		n += 2
	}
	if f.tx != "" {
		n++
	}
	return n
}
