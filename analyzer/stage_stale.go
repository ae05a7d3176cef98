package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// staleIgnores is the stage that reports the ignores that hid nothing.
// Every item of the functions that are no roots is resolved first, once
// the summaries are final: items of helpers past the one that set the
// summary count too, because resolving them marks their ignores used.
func (r *runner) staleIgnores(decls []*paths.Summary) {
	for _, s := range decls {
		if s.Root != resolve.NotRoot {
			continue
		}
		for _, it := range s.Items {
			r.resolveAt(s, it)
		}
	}
	r.view.rep.Stale()
}
