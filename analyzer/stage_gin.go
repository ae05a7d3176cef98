package analyzer

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/ginsetting"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/report"
)

// decideGin is part of the scan stage: whether a *gin.Context is the
// request's context here, from the configuration, this package's code
// and the facts below (internal/ginsetting). Where the setting makes a
// finding of c, and this package cannot decide it, the reporter holds
// the diagnostic for the packages above; where c is the request's, the
// findings that facts from below bring (a helper given c in an
// undecided package) are dropped.
func (r *pkgView) decideGin(files []*ast.File) {
	mode := ginsetting.Auto
	if v := r.cfg.GinContextFallback; v != nil && *v {
		mode = ginsetting.On
	} else if v != nil {
		mode = ginsetting.Off
	}
	r.ginOwn = ginsetting.Scan(r.pass, files)
	below := make([]analysis.Fact, len(r.below))
	for i, c := range r.below {
		below[i] = c.Fact
	}
	r.gin = ginsetting.Decide(mode, r.ginOwn, r.pass.Pkg.Name() == "main", below)
	r.ginFallback = r.gin.Decision == ginsetting.Fallback
	// paths.Finding.Gin travels with every path, through facts and the
	// join's deferred candidates (rules.Contexts.Decide).
	dependent := func(f *paths.Finding) bool {
		return f.Rule == "SIO002" && f.Gin
	}
	switch r.gin.Decision {
	case ginsetting.Fallback:
		r.rep.Hold = &report.Hold{Finding: dependent, Diag: func(analysis.Diagnostic) {}}
	case ginsetting.Undecided:
		r.rep.Hold = &report.Hold{Finding: dependent, Diag: func(d analysis.Diagnostic) {
			r.ginHeld = append(r.ginHeld, ginsetting.Hold(d, r.site))
		}}
	}
}

// settleGin is the last stage: it exports the package's part in the gin
// decision and reports what it decided to report from below. It returns
// the keys it held and decided, for the driver's account.
func (r *pkgView) settleGin() (held, decided []string) {
	return r.gin.Settle(r.ginOwn, r.ginHeld, r.pass.ExportPackageFact, r.sitePos, r.pass.Report)
}
