package analyzer

import (
	"fmt"
	"go/token"
	"strings"
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
}

func (*blocksFact) AFact() {}

func (f *blocksFact) String() string {
	return fmt.Sprintf("blocks(%s: %s)", f.Rule, strings.Join(f.Chain, " → "))
}

// finding is a blocking path as seen from one call site: the in-memory
// form of blocksFact plus the positions this pass can resolve.
type finding struct {
	rule   string
	chain  []string
	sites  []string
	poses  []token.Pos // token.NoPos where the site is in a file this pass cannot see
	detail string
	hint   string
}

func (f *finding) fact() *blocksFact {
	return &blocksFact{Rule: f.rule, Chain: f.chain, Sites: f.sites, Detail: f.detail, Hint: f.hint}
}

// prepend returns the finding seen from a caller whose call to name at pos
// leads to f.
func (f *finding) prepend(name, site string, pos token.Pos) *finding {
	return &finding{
		rule:   f.rule,
		chain:  append([]string{name}, f.chain...),
		sites:  append([]string{site}, f.sites...),
		poses:  append([]token.Pos{pos}, f.poses...),
		detail: f.detail,
		hint:   f.hint,
	}
}
