package join

import (
	"go/token"
	"slices"

	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// NewWalk returns dispatch's walk over b, with paths.BlocksFact
// as the payload, told what only the analyzer knows: whether a fact's
// context handed to an in-memory library counts as opaque (memoryIdle,
// SIO002's callbacks), a fact's paths as findings (fromFact), and where
// a site is in this pass (sitePos).
func NewWalk(b *paths.Bindings, memoryIdle func() bool, fromFact func(*paths.BlocksFact) *paths.Finding,
	sitePos func(site string) token.Pos) *dispatch.Walk[paths.BlocksFact, *paths.Finding] {
	return &dispatch.Walk[paths.BlocksFact, *paths.Finding]{
		B:          b,
		MaxDepth:   MaxDepth,
		MaxTargets: maxSlotTargets,
		ArgDynWork: MaxArgDynWork,
		Opaque: func(bf *paths.BlocksFact) bool {
			return bf.Opaque || (bf.OpaqueMemory && !memoryIdle())
		},
		Dyn:   func(bf *paths.BlocksFact) []paths.DynCall { return bf.Dyn },
		Given: (*paths.BlocksFact).ForCall,
		Paths: func(bf *paths.BlocksFact, prefix, sites []string) []*paths.Finding {
			if len(bf.Chain) == 0 {
				return nil
			}
			f := fromFact(bf)
			for i := range bf.More {
				f.More = append(f.More, fromFact(&bf.More[i]))
			}
			var out []*paths.Finding
			for _, p := range f.All() {
				g := *p
				// A lock the bound method takes on its own receiver is
				// judged by no call on the way here (dataflow.Owners): it
				// counts as shared.
				g.Lock = paths.LockName(p.Lock)
				if p.Ref {
					out = append(out, &g) // names its operation only
					continue
				}
				g.Chain = append(append([]string(nil), prefix...), p.Chain...)
				g.Sites = append(append([]string(nil), sites...), p.Sites...)
				g.Poses = nil
				for _, s := range g.Sites {
					g.Poses = append(g.Poses, sitePos(s))
				}
				out = append(out, &g)
			}
			return out
		},
		Held: func(f *paths.Finding, lock string) {
			if f.Lock == "" && rules.Lockable[f.Rule] {
				f.Lock = lock
			}
		},
	}
}

// ApplyPending returns what applies the configuration and the
// suppressions recorded on the way to a dispatched finding (Hooks.Apply),
// by the rules' judgement in rp. joined is told, for each finding that
// had something to report before those suppressions, the carried rules
// that hid it: an ignore at a root's call is stale when the join reports
// there and it hides nothing (report.Reporter.Joined).
func ApplyPending(rp *rules.Pkg, joined func(site string, hid []string)) func(paths.PendingCall, *paths.Finding) *paths.Finding {
	return func(pc paths.PendingCall, f *paths.Finding) *paths.Finding {
		var hid []string
		g := rp.Apply(f, pc.Dyn.Lock, "", func(rule string) bool {
			if !slices.Contains(pc.Dyn.Ignore, rule) {
				return false
			}
			hid = append(hid, rule)
			return true
		})
		nothing := g == nil || (g.Rule == "" && g.Lock == "")
		if !nothing || len(hid) > 0 {
			joined(pc.Site, hid)
		}
		if nothing {
			return nil
		}
		return g
	}
}
