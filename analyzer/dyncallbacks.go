package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// Callbacks through interfaces (internal/join's args.go): the func
// arguments of an interface call, recorded as the body is turned into
// items and summarised after the fixpoint; the join's recorder seals
// them into the call (join.Recorder.SealArgs).

// funcArgs returns the func arguments of an interface method call that
// dispatch may follow into a binding, and records the literals among them
// for a summary of their own (argLits). A dependency's interface calls
// carry none: they are bound only to the program's types, and their
// callbacks are the library's plumbing.
func (s *scanned) funcArgs(call *ast.CallExpr, sig *types.Signature) []dispatch.ArgRef {
	if s.view.thirdParty || sig == nil || sig.Params().Len() == 0 {
		return nil
	}
	info := s.view.pass.TypesInfo
	var out []dispatch.ArgRef
	for i, a := range call.Args {
		j := i
		if j >= sig.Params().Len() {
			if !sig.Variadic() {
				break
			}
			j = sig.Params().Len() - 1
		}
		t := sig.Params().At(j).Type()
		if sl, ok := t.(*types.Slice); ok && sig.Variadic() && j == sig.Params().Len()-1 && !call.Ellipsis.IsValid() {
			t = sl.Elem()
		}
		if _, ok := t.Underlying().(*types.Signature); !ok {
			continue
		}
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			out = append(out, dispatch.ArgRef{Param: j, Lit: lit})
			s.argLits = append(s.argLits, lit)
		} else if fn := funcRef(info, a); fn != nil {
			out = append(out, dispatch.ArgRef{Param: j, Fn: fn})
		}
	}
	return out
}

// argLitSummaries summarises the literals passed to interface methods
// (funcArgs), those found in their own bodies included, except request
// roots, which report their own findings.
func (r *runner) argLitSummaries(roots map[*ast.FuncLit]bool) []*paths.Summary {
	var out []*paths.Summary
	for i := 0; i < len(r.scanned.argLits); i++ {
		lit := r.scanned.argLits[i]
		if roots[lit] || r.litSummaries[lit] != nil {
			continue
		}
		sig, _ := r.view.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		s := &paths.Summary{Root: resolve.NotRoot, Sig: sig, Pos: lit.Pos(), Name: r.view.litName(lit)}
		r.litSummaries[lit] = s
		s.Items = r.scanned.collect(sig, lit.Body)
		out = append(out, s)
	}
	return out
}
