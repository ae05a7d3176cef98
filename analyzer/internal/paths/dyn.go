package paths

import "github.com/syncio/syncio/analyzer/internal/dispatch"

// The instances of dispatch's model: what a bound method or a
// func argument does is a BlocksFact.
type (
	DynCall     = dispatch.DynCall[BlocksFact]
	DynArg      = dispatch.DynArg[BlocksFact]
	PendingCall = dispatch.PendingCall[BlocksFact]
	Conv        = dispatch.Conv[BlocksFact]
	ConvMethod  = dispatch.ConvMethod[BlocksFact]
	Bindings    = dispatch.Bindings[BlocksFact]
)

// OwnDyn reports whether ds holds an interface call made outside the
// dependencies. Calls made inside one (DynCall.Dep) are no evidence of
// I/O for SIO002's idle callees and joins: the dependency's own
// implementations are not followed, and before they were kept a
// dependency's interface calls counted for nothing.
func OwnDyn(ds []DynCall) bool {
	for i := range ds {
		if !ds[i].Dep {
			return true
		}
	}
	return false
}

// maxDyn bounds the interface calls one function summary carries;
// maxDepDyn, apart, those made inside dependencies (DynCall.Dep), so that
// a library's calls never crowd out the program's own.
const (
	maxDyn    = 24
	maxDepDyn = 8
)
