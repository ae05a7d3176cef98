package resolve

import (
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// paramsFact is an object fact that lists some of a function's
// parameters: the adapters', the synchronous callers', the memoisers'
// and the storers' facts.
type paramsFact[P any] interface {
	analysis.Fact
	params() []P
}

// funcParams returns what a pre-pass knows of fn's parameters: for a
// function of this package its own finding (own), for another package's
// the fact F that package exported. found is false when fn is another
// package's and has no such fact (Sync then asks the standard library's
// table).
func funcParams[P, F any, PF interface {
	*F
	paramsFact[P]
}](pass *analysis.Pass, own map[*types.Func][]P, fn *types.Func) (ps []P, found bool) {
	fn = fn.Origin()
	if fn.Pkg() == pass.Pkg {
		return own[fn], true
	}
	f := PF(new(F))
	if fn.Pkg() != nil && pass.ImportObjectFact(fn, f) {
		return f.params(), true
	}
	return nil, false
}
