package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// exportFacts is the stage that hands the summaries to the packages
// above: a blocksFact for every function that is no root and leads to
// something, then the slots the roots call (slotroots.go).
func (r *scanned) exportFacts(decls, roots []*fnSummary) {
	for _, s := range decls {
		if s.root == resolve.NotRoot && (s.result != nil || len(s.dyn) > 0 || s.opaque || s.memOpaque || s.unfollowed != "") && s.fn != nil && !entryPoint(s.fn) &&
			!r.cfg.Allow[knowledge.Qualified(s.fn, s.fn.Pkg().Path())] {
			bf := &blocksFact{}
			if s.result != nil {
				bf = s.summary().fact()
			}
			bf.Dyn = s.dyn
			bf.Opaque = s.opaque
			bf.Unfollowed = s.unfollowed
			bf.OpaqueMemory = s.memOpaque && !s.opaque
			bf.CtxUnused = r.ctxUnused[s.fn]
			r.pass.ExportObjectFact(s.fn, bf)
		}
	}
	r.exportRootSlots(roots)
}
