package analyzer

import (
	"go/ast"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/seen"
)

// joinCalls is the join stage: the conversions and stores this package
// records (join.Recorder) with its pending calls and dropped
// contexts, joined with those of the packages below (internal/join). It
// returns the calls through slots that the join followed to none of the
// funcs stored there.
func (r *runner) joinCalls(files []*ast.File, rootLits map[*ast.FuncLit]bool, pending []paths.PendingCall, dropped []join.Dropped) []seen.Unfollowed {
	rec := r.recorder()
	convs := rec.Conversions(files)
	convs = append(convs, rec.Stores(rootLits)...)
	below := make([]analysis.Fact, len(r.view.below))
	for i, c := range r.view.below {
		below[i] = c.Fact
	}
	un := join.Run(join.Own{Pending: pending, Dropped: dropped, Convs: convs, Holds: r.scanned.holds.Edges(), Emitted: r.view.rep.Emitted}, below, join.Hooks{
		Export:  r.view.pass.ExportPackageFact,
		Walk:    r.scanned.walk,
		Apply:   join.ApplyPending(r.view.rules, r.view.rep.Joined),
		SitePos: r.view.sitePos,
		Report:  r.view.rep.Report,
		Decide:  r.scanned.decideDropped,
	})
	var unfollowed []seen.Unfollowed
	for site, u := range un {
		var patterns []string
		for _, t := range u.Types {
			if p, ok := rootPattern(t); ok {
				patterns = append(patterns, p)
			}
		}
		unfollowed = append(unfollowed, seen.Unfollowed{Pos: site, Slot: u.Slot, RootPatterns: patterns, Partial: u.Partial})
	}
	sort.Slice(unfollowed, func(i, j int) bool { return unfollowed[i].Pos < unfollowed[j].Pos })
	return unfollowed
}
