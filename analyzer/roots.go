package analyzer

import (
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// Which functions are request roots by signature is resolve's
// (resolve.SignatureRoot, DeclRoot); the roots the configuration names are
// the analyzer's, below.

// configRoot reports whether Config.Roots names fn, or a func(T) pattern
// matches its signature.
func (r *runner) configRoot(fn *types.Func, sig *types.Signature) bool {
	if len(r.cfg.Roots) == 0 || fn.Pkg() == nil {
		return false
	}
	key := knowledge.Qualified(fn, fn.Pkg().Path())
	for _, rt := range r.cfg.Roots {
		if rt == key {
			return true
		}
	}
	return r.patternRoot(sig)
}

// patternRoot reports whether a "func(T)" entry of Config.Roots matches the
// first parameter of sig.
func (r *runner) patternRoot(sig *types.Signature) bool {
	if len(r.cfg.Roots) == 0 || sig == nil || sig.Params().Len() == 0 {
		return false
	}
	first := "func(" + types.TypeString(sig.Params().At(0).Type(), nil) + ")"
	for _, rt := range r.cfg.Roots {
		if rt == first {
			return true
		}
	}
	return false
}
