package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Which functions are request roots by signature is resolve's
// (resolve.SignatureRoot, DeclRoot); the roots the configuration names
// are the configuration's (runConfig), below; the roots a package's own code makes (adapters,
// registration calls, stored handlers) are the runner's (rootBy).

// namesRoot reports whether Roots names fn, or a func(T) pattern matches
// its signature.
func (c runConfig) namesRoot(fn *types.Func, sig *types.Signature) bool {
	if len(c.Roots) == 0 || fn.Pkg() == nil {
		return false
	}
	key := knowledge.Qualified(fn, fn.Pkg().Path())
	for _, rt := range c.Roots {
		if rt == key {
			return true
		}
	}
	return c.matchesRoot(sig)
}

// matchesRoot reports whether a "func(T)" entry of Roots matches the first
// parameter of sig.
func (c runConfig) matchesRoot(sig *types.Signature) bool {
	if len(c.Roots) == 0 || sig == nil || sig.Params().Len() == 0 {
		return false
	}
	first := "func(" + types.TypeString(sig.Params().At(0).Type(), nil) + ")"
	for _, rt := range c.Roots {
		if rt == first {
			return true
		}
	}
	return false
}

// isRoot reports whether fn serves requests whoever calls it: by its
// signature or by the configuration. Such a function exports no fact,
// whatever it does (a gRPC method called with context.Background()).
func (c runConfig) isRoot(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	return resolve.SignatureRoot(sig) != resolve.NotRoot || resolve.GRPCRoot(fn) || resolve.GRPCStreamRoot(fn) || c.namesRoot(fn, sig)
}

// rootBy says why a function (fn) or func literal (lit) that no signature
// makes a root is one, and under which framework: the configuration names
// it, an adapter is given it, a registration call or a stored handler
// slot takes it. ok is false when none does.
func (s *scanned) rootBy(fn *types.Func, lit *ast.FuncLit, sig *types.Signature) (how, framework string, ok bool) {
	var named, adapted, registered, stored bool
	var regFW, slotFW string
	if lit != nil {
		named, adapted = s.view.cfg.matchesRoot(sig), s.cb.adaptedLits[lit]
		regFW, registered = s.reg.Lit(lit)
		slotFW, stored = s.slotRoots.Lit(lit)
	} else {
		named, adapted = s.view.cfg.namesRoot(fn, sig), s.cb.adapted[fn]
		regFW, registered = s.reg.Func(fn)
		slotFW, stored = s.slotRoots.Func(fn)
	}
	switch {
	case named:
		return seen.HowConfig, "custom", true
	case adapted:
		return seen.HowAdapter, "custom", true
	case registered:
		return seen.HowRegistration, regFW, true
	case stored:
		return seen.HowStored, slotFW, true
	}
	return "", "", false
}

// rootPattern is the Roots pattern ("func(T)") that matches the functions
// of a func type as resolve.Sig writes it ("func(T,U)(error)"): T is the
// first parameter. ok is false for a type with no parameter or one it
// cannot read.
func rootPattern(sig string) (string, bool) {
	rest, ok := strings.CutPrefix(sig, "func(")
	if !ok {
		return "", false
	}
	depth := 0
	for i, c := range rest {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if i == 0 {
					return "", false
				}
				return "func(" + rest[:i] + ")", true
			}
			depth--
		case ',':
			if depth == 0 {
				return "func(" + rest[:i] + ")", true
			}
		}
	}
	return "", false
}
