package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// reportRoots is the stage that reports at the roots' calls what they lead
// to. It returns what the join decides: the interface calls the roots
// make, and the SIO002 candidates whose callee's only evidence of I/O is
// such calls (internal/rules' dropped.go).
func (r *runner) reportRoots(roots []*paths.Summary) ([]paths.PendingCall, []join.Dropped) {
	var pending []paths.PendingCall
	var dropped []join.Dropped
	for _, s := range roots {
		for _, it := range s.Items {
			fs := r.resolveAt(s, it)
			if dc, ok := r.deferDropped(s, it, fs); ok {
				// Decided where the bindings are seen (rules.Contexts.Decide).
				dropped = append(dropped, dc)
			} else {
				r.view.rep.Report(s, it, fs)
			}
			if s.Unfollowed == "" {
				s.Unfollowed = r.unfollowedItem(it)
			}
		}
		if s.Reported > 0 {
			// It reaches an operation: not blind. A finding that dispatch
			// reports in it later, from another package, clears it in the
			// driver (seen.Report.ClearReached).
			s.Unfollowed = ""
		}
		if !r.view.thirdParty {
			// A dependency's own roots (a library's middleware) would be
			// reported in the dependency's files: not followed.
			pending = append(pending, r.pendingOf(s)...)
		}
	}
	return pending, dropped
}
