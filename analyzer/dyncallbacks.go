package analyzer

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// Callbacks through interfaces.
//
// A func literal (or function value) passed to an interface method
// (ds.WithTx(func(tx DataStore) error {…})) runs on the caller's path when
// the implementation the join binds calls that parameter before it
// returns (its CallsFact). The two halves are known in different places:
// the literal's body in the handler's package, the binding only at the
// join. So the call site summarises each func argument (dynArg, carried by
// the paths.DynCall in facts), the conversion records which parameters each
// concrete method calls on the spot (convMethod.Calls), and dispatch
// follows an argument only into a binding that calls its parameter. An
// implementation that stores the function, or starts it with go, has no
// CallsFact: the literal is off the request path there.

// maxArgDepth bounds how deeply dynArgs nest (a literal passed to an
// interface method inside a literal passed to one), so facts stay small.
const maxArgDepth = 2

// funcArgs returns the func arguments of an interface method call that
// dispatch may follow into a binding, and records the literals among them
// for a summary of their own (argLits). A dependency's interface calls
// carry none: they are bound only to the program's types, and their
// callbacks are the library's plumbing.
func (r *scanned) funcArgs(call *ast.CallExpr, sig *types.Signature) []resolve.ArgRef {
	if r.thirdParty || sig == nil || sig.Params().Len() == 0 {
		return nil
	}
	info := r.pass.TypesInfo
	var out []resolve.ArgRef
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
			out = append(out, resolve.ArgRef{Param: j, Lit: lit})
			r.argLits = append(r.argLits, lit)
		} else if fn := funcRef(info, a); fn != nil {
			out = append(out, resolve.ArgRef{Param: j, Fn: fn})
		}
	}
	return out
}

// argLitSummaries summarises the literals passed to interface methods
// (funcArgs), those found in their own bodies included, except request
// roots, which report their own findings.
func (r *runner) argLitSummaries(roots map[*ast.FuncLit]bool) []*paths.Summary {
	var out []*paths.Summary
	for i := 0; i < len(r.argLits); i++ {
		lit := r.argLits[i]
		if roots[lit] || r.litSummaries[lit] != nil {
			continue
		}
		sig, _ := r.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		s := &paths.Summary{Root: resolve.NotRoot, Sig: sig, Pos: lit.Pos(), Name: r.litName(lit)}
		r.litSummaries[lit] = s
		s.Items = r.collect(sig, lit.Body)
		out = append(out, s)
	}
	return out
}

// sealArgs fills in the Args of interface calls from their Refs, once
// the package's summaries are final (after the fixpoint).
func (r *runner) sealArgs(ds []paths.DynCall, depth int) []paths.DynCall {
	if depth > maxArgDepth {
		return ds
	}
	var out []paths.DynCall
	for i := range ds {
		d := ds[i]
		if len(d.Refs()) == 0 || len(d.Args) > 0 {
			continue
		}
		if out == nil {
			out = slices.Clone(ds)
		}
		var args []paths.DynArg
		for _, a := range d.Refs() {
			var bf *paths.BlocksFact
			var name, site string
			switch {
			case a.Lit != nil:
				bf = r.argFact(r.litSummaries[a.Lit], depth)
				name, site = r.litName(a.Lit), r.site(a.Lit.Pos())
			case a.Fn != nil:
				if s := r.byFunc[a.Fn.Origin()]; s != nil {
					bf = r.argFact(s, depth)
				} else {
					bf = r.methodFact(a.Fn)
				}
				name, site = paths.DisplayName(a.Fn), d.Sites[len(d.Sites)-1]
			}
			if bf != nil {
				args = append(args, paths.DynArg{Param: a.Param, Name: name, Site: site, Fact: bf})
			}
		}
		out[i].Args = args
		out[i].SetRefs(nil)
	}
	if out == nil {
		return ds
	}
	return out
}

// argFact is what calling a summarised function or literal does, with the
// interface calls it makes sealed in turn; nil when it does nothing the
// join could report.
func (r *runner) argFact(s *paths.Summary, depth int) *paths.BlocksFact {
	if s == nil || s.Root != resolve.NotRoot || (s.Result == nil && len(s.Dyn) == 0) {
		return nil
	}
	bf := &paths.BlocksFact{}
	if s.Result != nil {
		bf = s.WithMore(rules.Lockable).Fact()
	}
	bf.Dyn = r.sealArgs(s.Dyn, depth+1)
	return bf
}
