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
// package is done: on gin-vue-admin that is most of the peak.
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

// capAtLoad sets the soft memory limit, unless GOMEMLIMIT is given, to
// 15% over what the process holds once the packages are loaded (at least
// half again the live heap, so the analysis's own working set never makes
// the collector run back to back). Without it the collector's next goal
// is fixed by the loaded graph, half as much again, and the analysis
// fills it with garbage while releasing reclaims the graph: the peak of a
// run would be reached after the load instead of during it. On
// gin-vue-admin the margin costs 2% CPU for 13% off the peak; none costs
// 7% for 18% (docs/precision.md).
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
	if limit < math.MaxInt64 {
		debug.SetMemoryLimit(int64(limit))
	}
}
