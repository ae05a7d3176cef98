package analyzer

import (
	"go/ast"
	"strconv"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/branches"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/seen"
)

// result is the last stage: what the pass saw (roots, registrations, the
// calls through slots followed nowhere, and the references that tell a
// dispatch branch from a handler), and the roots that reach nothing
// (reportBlind).
func (s *scanned) result(files []*ast.File, roots []*paths.Summary, unfollowed []seen.Unfollowed) *seen.Package {
	res := s.reg.Result(roots)
	res.Unfollowed = unfollowed
	if !s.view.thirdParty {
		res.Refs = branches.Refs(s.view.pass.TypesInfo, s.view.pass.Pkg, s.adapters, s.view.site, files, roots)
	}
	s.reportBlind(res)
	return res
}

// reportBlind reports, with Config.StrictRoots, a package that registers
// routes but where no request root was found.
func (s *scanned) reportBlind(res *seen.Package) {
	if !s.view.cfg.StrictRoots || !res.Blind() {
		return
	}
	why := ""
	if regs := res.Registrations; len(regs) > 0 && len(regs[0].Unresolved) > 0 {
		why = " (first: " + regs[0].Unresolved[0] + ")"
	}
	s.view.pass.Report(analysis.Diagnostic{Pos: s.reg.First(), Category: "SIO000",
		Message: "this package registers routes (" + strconv.Itoa(len(res.Registrations)) + " registration calls) but syncio found no request root in it, so none of their handlers was analysed" + why +
			"; mark the handlers //syncio:handler or pass -roots (docs/frameworks.md) (SIO000)"})
}
