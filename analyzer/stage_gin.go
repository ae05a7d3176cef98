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
func (v *pkgView) decideGin(files []*ast.File) {
	mode := ginsetting.Auto
	if set := v.cfg.GinContextFallback; set != nil && *set {
		mode = ginsetting.On
	} else if set != nil {
		mode = ginsetting.Off
	}
	v.ginOwn = ginsetting.Scan(v.pass, files)
	below := make([]analysis.Fact, len(v.below))
	for i, c := range v.below {
		below[i] = c.Fact
	}
	v.gin = ginsetting.Decide(mode, v.ginOwn, v.pass.Pkg.Name() == "main", below)
	v.ginFallback = v.gin.Decision == ginsetting.Fallback
	// paths.Finding.Gin travels with every path, through facts and the
	// join's deferred candidates (rules.Contexts.Decide).
	dependent := func(f *paths.Finding) bool {
		return f.Rule == "SIO002" && f.Gin
	}
	switch v.gin.Decision {
	case ginsetting.Fallback:
		v.rep.Hold = &report.Hold{Finding: dependent, Diag: func(analysis.Diagnostic) {}}
	case ginsetting.Undecided:
		v.rep.Hold = &report.Hold{Finding: dependent, Diag: func(d analysis.Diagnostic) {
			v.ginHeld = append(v.ginHeld, ginsetting.Hold(d, v.site))
		}}
	}
}

// settleGin is the last stage: it exports the package's part in the gin
// decision and reports what it decided to report from below. It returns
// the keys it held and decided, for the driver's account.
func (v *pkgView) settleGin() (held, decided []string) {
	return v.gin.Settle(v.ginOwn, v.ginHeld, v.pass.ExportPackageFact, v.sitePos, v.pass.Report)
}
