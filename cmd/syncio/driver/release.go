package driver

import (
	"go/types"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// releasing returns a copy of a whose Run, once a package is analysed,
// drops that package's type information and, unless it is one the user
// named, its syntax. Its dependents read it only through facts and its
// types.Package, both kept, so what a package's run leaves behind is dead
// weight, yet the loaded graph would hold all of it until the last
// package is done. On gin-vue-admin releasing alone took the peak to 0.90×
// and the CPU to 0.92× (the collector marks less).
// The roots keep their syntax: findings are keyed by their declarations
// for -baseline.
func releasing(a *analysis.Analyzer, initial []*packages.Package) *analysis.Analyzer {
	deps := map[*types.Package]*packages.Package{}
	roots := map[*packages.Package]bool{}
	for _, p := range initial {
		roots[p] = true
	}
	packages.Visit(initial, nil, func(p *packages.Package) {
		if !roots[p] && p.Types != nil {
			deps[p.Types] = p
		}
	})
	run := a.Run
	wrapped := *a
	wrapped.Run = func(pass *analysis.Pass) (any, error) {
		res, err := run(pass)
		if info := pass.TypesInfo; info != nil {
			info.Types, info.Defs, info.Uses, info.Implicits = nil, nil, nil, nil
			info.Selections, info.Scopes, info.Instances = nil, nil, nil
		}
		if p := deps[pass.Pkg]; p != nil {
			p.Syntax, pass.Files = nil, nil
		}
		return res, err
	}
	return &wrapped
}

// capAtLoad bounds the analysis by the load. After the load, unless
// GOMEMLIMIT is given, the soft memory limit is 15% over what the process
// holds (at least half again the live heap), and, unless GOGC is given,
// the collector's target rises from the load's to 200. Without the limit
// the next goal is fixed by the loaded graph, and the analysis
// fills it with garbage while releasing reclaims the graph, so a run's
// peak came after the load instead of during it. Under the limit a low
// target only makes the collector mark a shrinking heap more often (the
// last stages of a run on Cloudreve collected every second with 600 MB
// live). On gin-vue-admin and Cloudreve: 13% and 10% off the peak, the
// same CPU (docs/precision.md).
func capAtLoad() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	for _, m := range s {
		if m.Value.Kind() != metrics.KindUint64 {
			return
		}
	}
	held := s[0].Value.Uint64() - s[1].Value.Uint64()
	limit := max(held/20*23, s[2].Value.Uint64()/2*3)
	if limit >= math.MaxInt64 {
		return
	}
	debug.SetMemoryLimit(int64(limit))
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}
