package report

import (
	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// carried are the ignores at roots' calls whose rules travel with the
// interface calls there (paths.DynCall.Ignore): whether one hid anything
// is known only once the join has dispatched those calls.
type carried struct {
	pending []pendingIgnore
	// joined are the sites of roots' calls whose dispatched paths the
	// join had something to report of, hidden or not; hid the
	// "site|rule" of the carried rules that hid one of them.
	joined map[string]bool
	hid    map[string]bool
}

// pendingIgnore is one ignore carried to the interface calls at a root's
// call (site) for one rule.
type pendingIgnore struct {
	ig         *directive.Ignore
	site, rule string
}

// Carried reports whether rule is hidden at s's item for the interface
// calls it leads to, as Suppressed does, for the join to drop the rule's
// findings where it sees the bindings.
//
// At a helper's item an ignore that hides the rule is marked used at
// once: the helper's interface calls travel in its fact to callers in
// other packages, whose joins this package never sees. At a root's item
// it is left pending, and decided by what this package's join did with
// the call (Joined): used when a carried rule of it hid a finding there,
// or when the join had nothing to report there at all (no binding is
// seen here, or none blocks: the call leaves the package in its pending
// fact and is joined above, where this package cannot judge it); stale
// when the join reported something at the call and the ignore hid none
// of it. A binding only a package above sees is not weighed: an ignore
// that would hide only its finding is stale here once a binding seen
// here reaches another rule.
func (r *Reporter) Carried(s *paths.Summary, it paths.Item, rule string) bool {
	if s.Root == resolve.NotRoot {
		return r.Suppressed(s, it, rule)
	}
	if it.Once && r.opts.Once[rule] {
		return true // not an ignore's doing
	}
	if r.opts.ReportIgnored {
		return false
	}
	ig := directive.FuncIgnore(s.Ignores, rule)
	if ig == nil {
		ig = r.dirs.At(it.Pos, rule)
	}
	if ig == nil {
		return false
	}
	r.carried.pending = append(r.carried.pending, pendingIgnore{ig: ig, site: r.site(it.Pos), rule: rule})
	return true
}

// Joined is told, for one path the join dispatched from the root's call
// at site and had to report before the carried ignores, which carried
// rules hid it (none when it is reported).
func (r *Reporter) Joined(site string, hid []string) {
	if r.carried.joined == nil {
		r.carried.joined, r.carried.hid = map[string]bool{}, map[string]bool{}
	}
	r.carried.joined[site] = true
	for _, rule := range hid {
		r.carried.hid[site+"|"+rule] = true
	}
}

// settleCarried marks used the pending ignores that the join did not find
// stale (Carried); Stale judges the rest with every other ignore.
func (r *Reporter) settleCarried() {
	for _, p := range r.carried.pending {
		if r.carried.hid[p.site+"|"+p.rule] || !r.carried.joined[p.site] {
			p.ig.Used = true
		}
	}
	r.carried.pending = nil
}
