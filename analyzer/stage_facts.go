package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/registry"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// exportFacts is the stage that hands the summaries to the packages
// above: a paths.BlocksFact for every function that is no root and leads to
// something, then the slots the roots call (join.ExportRootSlots).
func (s *scanned) exportFacts(decls, roots []*paths.Summary) {
	for _, sum := range decls {
		// A function that reaches nothing still says so when it returns
		// more than plain values but never uses its context beyond
		// reading values from it (rules.Contexts.ScanUse): a caller in
		// another package that gives it a dropped context is no SIO002.
		if sum.Root == resolve.NotRoot && (sum.Result != nil || len(sum.Dyn) > 0 || sum.Opaque || sum.MemOpaque || sum.Unfollowed != "" || s.ctxs.Unused(sum.Func)) && sum.Func != nil && !named.EntryPoint(sum.Func) &&
			!s.view.cfg.Allow[knowledge.Qualified(sum.Func, sum.Func.Pkg().Path())] {
			bf := sum.Fact(rules.Lockable)
			for f, g := bf, sum; f != nil; f, g = f.IfGiven, g.IfGiven {
				f.Opaque = g.Opaque
				f.Unfollowed = g.Unfollowed
				f.OpaqueMemory = g.MemOpaque && !g.Opaque
				f.CtxUnused = s.ctxs.Unused(sum.Func)
			}
			s.view.pass.ExportObjectFact(sum.Func, bf)
		}
	}
	join.ExportRootSlots(s.view.pass, s.view.thirdParty, roots, registry.FrameworkOf)
}
