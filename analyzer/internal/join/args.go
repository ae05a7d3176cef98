package join

import (
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

// SealArgs fills in the Args of interface calls from their Refs (the
// analyzer's funcArgs), once the package's summaries are final (after
// the fixpoint).
func (rec *Recorder) SealArgs(ds []paths.DynCall) []paths.DynCall { return rec.sealArgs(ds, 0) }

// sealArgs is SealArgs at a depth of nested arguments.
func (rec *Recorder) sealArgs(ds []paths.DynCall, depth int) []paths.DynCall {
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
				bf = rec.argFact(rec.Lit(a.Lit), depth)
				name, site = rec.LitName(a.Lit), rec.Site(a.Lit.Pos())
			case a.Fn != nil:
				if s := rec.Summary(a.Fn.Origin()); s != nil {
					bf = rec.argFact(s, depth)
				} else {
					bf = rec.Method(a.Fn)
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
func (rec *Recorder) argFact(s *paths.Summary, depth int) *paths.BlocksFact {
	if s == nil || s.Root != resolve.NotRoot || (s.Result == nil && len(s.Dyn) == 0) {
		return nil
	}
	bf := &paths.BlocksFact{}
	if s.Result != nil {
		bf = s.WithMore(rules.Lockable).Fact()
	}
	bf.Dyn = rec.sealArgs(s.Dyn, depth+1)
	return bf
}
