package paths

import (
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"go/token"
)

// Finding is a blocking path as seen from one call site: the in-memory
// form of BlocksFact plus the positions this pass can resolve.
type Finding struct {
	Rule   string // "" for I/O that is no finding by itself (see BlocksFact.Rule)
	Lock   string // see BlocksFact.Lock
	Tx     string // see BlocksFact.Tx
	Chain  []string
	Sites  []string
	Poses  []token.Pos // token.NoPos where the site is in a file this pass cannot see
	Detail string
	Hint   string
	Kind   knowledge.OpKind // see BlocksFact.Kind
	Ref    bool             // see BlocksFact.Ref
	Gin    bool             // see BlocksFact.Gin
	Over   int              // see BlocksFact.Over
	More   []*Finding       // other rules' paths from the same function, see BlocksFact.More
}

// Fact is f as the fact a function exports.
func (f *Finding) Fact() *BlocksFact {
	bf := &BlocksFact{Rule: f.Rule, Chain: f.Chain, Sites: f.Sites, Detail: f.Detail, Hint: f.Hint, Lock: f.Lock, Tx: f.Tx,
		Kind: f.Kind, Ref: f.Ref, Gin: f.Gin, Over: f.Over}
	for _, m := range f.More {
		bf.More = append(bf.More, *m.Fact())
	}
	return bf
}

// Prepend returns the finding seen from a caller whose call to name at pos
// leads to f.
func (f *Finding) Prepend(name, site string, pos token.Pos) *Finding {
	if f.Ref {
		return f // names its operation only, wherever it is seen from
	}
	var more []*Finding
	for _, m := range f.More {
		more = append(more, m.Prepend(name, site, pos))
	}
	return &Finding{
		More:   more,
		Rule:   f.Rule,
		Lock:   f.Lock,
		Tx:     f.Tx,
		Chain:  append([]string{name}, f.Chain...),
		Sites:  append([]string{site}, f.Sites...),
		Poses:  append([]token.Pos{pos}, f.Poses...),
		Detail: f.Detail,
		Hint:   f.Hint,
		Kind:   f.Kind,
		Gin:    f.Gin,
		Over:   f.Over,
	}
}

// All returns f and its other rules' paths, each without more.
func (f *Finding) All() []*Finding {
	if len(f.More) == 0 {
		return []*Finding{f}
	}
	g := *f
	g.More = nil
	return append([]*Finding{&g}, f.More...)
}

// MaxTerminals bounds the distinct blocking operations per rule that a
// finding's message names, and that a fact keeps with their paths.
const MaxTerminals = 4

// MaxOps bounds the distinct blocking operations per rule that a
// function's summary and its fact name (MaxTerminals with their paths,
// the rest by name and site); the others are only counted (Over).
const MaxOps = 16

// AsRef returns f reduced to its operation and site (BlocksFact.Ref).
func (f *Finding) AsRef() *Finding {
	if f.Ref || len(f.Chain) == 0 {
		return f
	}
	n := len(f.Chain) - 1
	g := &Finding{Rule: f.Rule, Lock: f.Lock, Tx: f.Tx, Kind: f.Kind, Over: f.Over, Ref: true, Gin: f.Gin, Chain: f.Chain[n:]}
	if n < len(f.Sites) {
		g.Sites = f.Sites[n:]
	}
	if n < len(f.Poses) {
		g.Poses = f.Poses[n:]
	}
	return g
}

// From returns f as seen from the function that makes its i-th call:
// the chain from that call on. A Ref finding names its operation only, so
// it is the same from anywhere.
func (f *Finding) From(i int) *Finding {
	if f.Ref || i <= 0 || i >= len(f.Chain) {
		return f
	}
	g := *f
	g.More = nil
	g.Chain = f.Chain[i:]
	if i < len(f.Sites) {
		g.Sites = f.Sites[i:]
	}
	if i < len(f.Poses) {
		g.Poses = f.Poses[i:]
	} else {
		g.Poses = nil
	}
	return &g
}

// BetterMain says whether f should replace g as a function's main path
// (Summary.Result): a higher rank, or, for the same rule, a better
// kind. Between rules of equal rank the first found stays, as each rule
// has its own diagnostic.
func (f *Finding) BetterMain(g *Finding) bool {
	if a, b := f.Rank(), g.Rank(); a != b {
		return a > b
	}
	return f.Rule == g.Rule && f.Kind.Order() < g.Kind.Order()
}

// Better orders the operations of one rule: the higher rank first, then
// by kind (remote calls and waits, then databases and caches, then
// unclassified, then local work: knowledge.OpKind.Order). Equals keep the
// order they were found in, source order, which is deterministic.
func (f *Finding) Better(g *Finding) bool {
	if a, b := f.Rank(), g.Rank(); a != b {
		return a > b
	}
	return f.Kind.Order() < g.Kind.Order()
}

// Terminal identifies the blocking operation a path ends at: its name and
// its site.
func (f *Finding) Terminal() string {
	n := len(f.Chain) - 1
	if n < 0 {
		return ""
	}
	site := ""
	if n < len(f.Sites) {
		site = f.Sites[n]
	}
	return f.Chain[n] + "@" + site
}

// Rank orders findings for a function's summary: a rule finding under a
// lock beats a rule finding, which beats I/O under a lock, which beats
// plain I/O; between equals, one across an open transaction wins.
func (f *Finding) Rank() int {
	n := 0
	if f.Rule != "" {
		n += 4
	}
	if f.Lock != "" {
		n += 2
	}
	if f.Tx != "" {
		n++
	}
	return n
}
