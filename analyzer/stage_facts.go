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
func (r *scanned) exportFacts(decls, roots []*paths.Summary) {
	for _, s := range decls {
		// A function that reaches nothing still says so when it returns
		// more than plain values but never uses its context beyond
		// reading values from it (rules.Contexts.ScanUse): a caller in
		// another package that gives it a dropped context is no SIO002.
		if s.Root == resolve.NotRoot && (s.Result != nil || len(s.Dyn) > 0 || s.Opaque || s.MemOpaque || s.Unfollowed != "" || r.ctxs.Unused(s.Func)) && s.Func != nil && !named.EntryPoint(s.Func) &&
			!r.cfg.Allow[knowledge.Qualified(s.Func, s.Func.Pkg().Path())] {
			bf := &paths.BlocksFact{}
			if s.Result != nil {
				bf = s.WithMore(rules.Lockable).Fact()
			}
			bf.Dyn = s.Dyn
			bf.Opaque = s.Opaque
			bf.Unfollowed = s.Unfollowed
			bf.OpaqueMemory = s.MemOpaque && !s.Opaque
			bf.CtxUnused = r.ctxs.Unused(s.Func)
			r.pass.ExportObjectFact(s.Func, bf)
		}
	}
	join.ExportRootSlots(r.pass, r.thirdParty, roots, registry.FrameworkOf)
}
