// Package cause groups findings by the place where they are fixed.
//
// The analyzer reports a finding at each request root's call that leads
// to a problem, because that is what go vet and golangci-lint can say of
// one package at a time. When a module function is the cause for many
// roots (a getter that drops its context, a store that blocks without
// one), one place to fix reads as one finding per handler: Cloudreve v4
// gave 148 findings for 32 such places. The standalone command sees the
// whole program, so it can show each place once.
//
// The cause of a finding is the last hop of its call chain that is still
// in the program's own code: the call into the dependency that blocks, or
// the blocking call or dropped context itself when the program makes it.
// The chain's "also reaches" tails are other operations of the same call
// and are not followed. A finding whose cause is its own position (the
// handler makes the call) is its own group, so per-handler findings stay
// per handler where the fix is in each handler.
package cause

import (
	"go/token"
	"path/filepath"
	"strings"
)

// Hop is one step of a finding's chain, as the analyzer's related
// information gives it.
type Hop struct {
	Pos     token.Position
	Message string
}

// Finding is what grouping reads of one finding.
type Finding struct {
	Rule  string
	Pos   token.Position
	Chain []Hop
}

// alsoReaches starts the related entries that name another operation of
// the same call (internal/report); they are not the chain's next hop.
const alsoReaches = "also reaches "

// reachedFrom starts the related entries of a finding that the analyzer
// reported away from its roots' calls, one per request path that reaches
// it (internal/report's ReachedPrefix); they are no hop of the chain.
const reachedFrom = "on the request path of "

// Paths is how many request paths f stands for: one, or the roots a
// finding reported away from their calls names.
func Paths(f Finding) int {
	n := 0
	for _, h := range f.Chain {
		if strings.HasPrefix(h.Message, reachedFrom) {
			n++
		}
	}
	return max(n, 1)
}

// Program tells the program's own files by directory: the modules of the
// packages asked for. A file outside them (the module cache, GOROOT) is a
// dependency's.
type Program []string

// Has reports whether filename lies in one of the program's directories.
func (p Program) Has(filename string) bool {
	for _, dir := range p {
		if rel, err := filepath.Rel(dir, filename); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// Site is f's cause: the last hop of its chain in the program before the
// chain leaves it, and the index of that hop (-1: the finding's own
// position, when no hop qualifies).
func (p Program) Site(f Finding) (token.Position, int) {
	site, at := f.Pos, -1
	for i, h := range f.Chain {
		if strings.HasPrefix(h.Message, alsoReaches) || strings.HasPrefix(h.Message, reachedFrom) || !h.Pos.IsValid() || !p.Has(h.Pos.Filename) {
			break
		}
		site, at = h.Pos, i
	}
	if at >= 0 && site == f.Pos {
		at = -1 // the root's own call is the cause
	}
	return site, at
}

// Group returns the findings' groups, each a list of indices into fs in
// their order, the groups ordered by their first member. Findings of one
// rule with one cause that is not their own position, where the chain
// says the same of it, form a group; every other finding is a group of
// its own.
func (p Program) Group(fs []Finding) [][]int {
	// The hop's own message is in the key: at one call, SIO003's hops
	// under two different locks are two things to fix.
	type key struct {
		rule, msg string
		site      token.Position
	}
	at := map[key]int{}
	var groups [][]int
	for i, f := range fs {
		site, hop := p.Site(f)
		if hop < 0 {
			groups = append(groups, []int{i})
			continue
		}
		k := key{f.Rule, f.Chain[hop].Message, site}
		if g, ok := at[k]; ok {
			groups[g] = append(groups[g], i)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, []int{i})
	}
	return groups
}
