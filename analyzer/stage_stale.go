package analyzer

import (
	"go/ast"

	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// staleIgnores is the stage that reports the ignores that hid nothing,
// after SIO008's sites (servers, serving calls, dialers), which no path
// leads to, and after the join, which decides the ignores carried to the
// roots' interface calls (report's Carried).
// Every item of the functions that are no roots is resolved first, once
// the summaries are final: items of helpers past the one that set the
// summary count too, because resolving them marks their ignores used.
func (r *runner) staleIgnores(files []*ast.File, decls []*paths.Summary) {
	for _, e := range r.view.rules.Edges(r.view.pass.Fset, files) {
		r.view.rep.Site(e.Pos, e.End, rules.DeadlineRule, e.Message, e.Fixes)
	}
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
