package analyzer

import (
	"go/ast"

	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/seen"
)

// result is the last stage: what the pass saw (roots, registrations, the
// calls through slots followed nowhere, and the references that tell a
// dispatch branch from a handler), and the roots that reach nothing
// (reportBlind).
func (r *scanned) result(files []*ast.File, roots []*paths.Summary, unfollowed []seen.Unfollowed) *seen.Package {
	res := r.seenResult(roots)
	res.Unfollowed = unfollowed
	if !r.thirdParty {
		res.Refs = r.rootRefs(files, roots)
	}
	r.reportBlind(res)
	return res
}
