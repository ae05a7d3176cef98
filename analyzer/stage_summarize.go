package analyzer

import "github.com/syncio/syncio/analyzer/internal/resolve"

// summarize is the fixpoint over the package's call graph: a function's
// summary is its highest-ranked item, plus the highest-ranked path of
// every other rule. Ranks only grow and are bounded, and there are few
// rules, so it terminates, recursion included. The func arguments of
// interface calls are summarised after it, once every summary is final.
func (r *runner) summarize(decls []*fnSummary) {
	for changed := true; changed; {
		changed = false
		for _, s := range decls {
			if s.root != resolve.NotRoot {
				continue
			}
			for _, it := range s.items {
				if r.summarizeItem(s, it) {
					changed = true
				}
			}
		}
	}
	for _, s := range decls {
		s.dyn = r.sealArgs(s.dyn, 0)
	}
}

// summarizeItem adds what one item leads to to its function's summary. It
// reports whether the summary changed.
func (r *runner) summarizeItem(s *fnSummary, it item) bool {
	changed := false
	if s.addDyn(r.dynOf(s, it)) {
		changed = true
	}
	if !s.opaque && r.opaqueItem(it) {
		s.opaque = true
		changed = true
	}
	if s.unfollowed == "" {
		if u := r.unfollowedItem(it); u != "" {
			s.unfollowed = u
			changed = true
		}
	}
	if !s.memOpaque && r.memOpaqueItem(it) {
		s.memOpaque = true
		changed = true
	}
	fs := r.resolveAt(s, it)
	if len(fs) == 0 {
		return changed
	}
	if f := fs[0]; s.result == nil || f.betterMain(s.result) {
		s.result = f
		changed = true
	}
	if s.addPaths(fs) {
		changed = true
	}
	return changed
}
