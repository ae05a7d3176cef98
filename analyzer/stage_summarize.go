package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// summarize is the fixpoint over the package's call graph: a function's
// summary is its highest-ranked item, plus the highest-ranked path of
// every other rule. Ranks only grow and are bounded, and there are few
// rules, so it terminates, recursion included. The func arguments of
// interface calls are summarised after it, once every summary is final.
func (r *runner) summarize(decls []*paths.Summary) {
	for changed := true; changed; {
		changed = false
		for _, s := range decls {
			if s.Root != resolve.NotRoot {
				continue
			}
			for _, it := range s.Items {
				if r.summarizeItem(s, it) {
					changed = true
				}
			}
			if g := s.IfGiven; g != nil {
				for _, it := range g.Items {
					changed = r.summarizeItem(g, it) || changed
				}
			}
		}
	}
	rec := r.recorder()
	for _, s := range decls {
		s.Dyn = rec.SealArgs(s.Dyn)
		if s.IfGiven != nil {
			s.IfGiven.Dyn = rec.SealArgs(s.IfGiven.Dyn)
		}
	}
}

// summarizeItem adds what one item leads to to its function's summary. It
// reports whether the summary changed.
func (r *runner) summarizeItem(s *paths.Summary, it paths.Item) bool {
	changed := s.AddDyn(r.dynOf(s, it))
	if !s.Opaque && r.opaqueItem(it) {
		s.Opaque = true
		changed = true
	}
	if s.Unfollowed == "" {
		if u := r.unfollowedItem(it); u != "" {
			s.Unfollowed = u
			changed = true
		}
	}
	if !s.MemOpaque && r.memOpaqueItem(it) {
		s.MemOpaque = true
		changed = true
	}
	fs := r.resolveAt(s, it)
	if len(fs) == 0 {
		return changed
	}
	if f := fs[0]; s.Result == nil || f.BetterMain(s.Result) {
		s.Result = f
		changed = true
	}
	if s.AddPaths(fs) {
		changed = true
	}
	return changed
}
