package join

import (
	"go/token"
	"sort"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// A package's diagnostics are printed when its pass ends, so a package
// above cannot amend one: when it sees bindings that add operations for a
// rule a package below already reported at a root's call, a second
// diagnostic there would repeat the place and the rule (issue 37 item 7).
// What the binding adds is reported once where the bound code is called:
// the deepest interface (or slot) call that every added path of the
// root's call goes through, with the request paths that reach it. Roots
// that reach the same call share that one diagnostic.

// movedAt is a root's call's findings of rules that a package below
// reported there already, one rule each.
type movedAt struct {
	pc       paths.PendingCall
	pos, end token.Pos
	fs       []*paths.Finding
}

// split divides f by rule: stay keeps the rules not reported below (and
// its transaction), move has one finding for each rule reported below.
func split(f *paths.Finding, below func(rule string) bool) (stay *paths.Finding, move []*paths.Finding) {
	s := *f
	if f.Rule != "" && below(f.Rule) {
		g := *f
		g.Lock, g.Tx = "", ""
		move = append(move, &g)
		s.Rule = ""
	}
	if f.Lock != "" && below("SIO003") {
		g := *f
		g.Rule, g.Tx = "", ""
		move = append(move, &g)
		s.Lock = ""
	}
	if s.Rule == "" && s.Lock == "" && s.Tx == "" {
		return nil, move
	}
	return &s, move
}

func ruleOf(f *paths.Finding) string {
	if f.Rule != "" {
		return f.Rule
	}
	return "SIO003"
}

// target is the index of the deepest dispatch step on every path of fs
// whose site free accepts, or -1. The dispatch walk puts a bound method
// at its interface call's own site, right after the call, so a step
// whose next step repeats its site is a dispatch.
func target(fs []*paths.Finding, free func(site string) bool) int {
	var common *paths.Finding
	n := 0
	for _, f := range fs {
		if f.Ref {
			continue
		}
		if common == nil {
			common, n = f, min(len(f.Chain), len(f.Sites))
			continue
		}
		k := 0
		for k < n && k < len(f.Chain) && k < len(f.Sites) && f.Chain[k] == common.Chain[k] && f.Sites[k] == common.Sites[k] {
			k++
		}
		n = k
	}
	for i := n - 2; i >= 0; i-- {
		if s := common.Sites[i]; s != "" && s == common.Sites[i+1] && free(s) {
			return i
		}
	}
	return -1
}

// relocate reports the moved findings at their interface calls, one
// diagnostic per call and rule, and records what it reported. A finding
// with no such call on its paths stays at the root's call.
func relocate(moved []movedAt, in *input, h Hooks) {
	// One group per interface call: the reporter makes one diagnostic
	// per rule of a place's findings, each naming its own rule's roots.
	type group struct {
		pos    token.Pos
		caller string
		fs     []*paths.Finding
		reach  map[string][]paths.Reach
	}
	groups := map[string]*group{}
	var order []string
	for _, m := range moved {
		byRule := map[string][]*paths.Finding{}
		var rules []string
		for _, f := range m.fs {
			r := ruleOf(f)
			if byRule[r] == nil {
				rules = append(rules, r)
			}
			byRule[r] = append(byRule[r], f)
		}
		for _, rule := range rules {
			fs := byRule[rule]
			i := target(fs, func(site string) bool { return site != m.pc.Site && !in.below[site+"|"+rule] })
			var pos token.Pos
			var site string
			if i > 0 {
				site = firstPath(fs).Sites[i]
				pos = h.SitePos(site)
			}
			if !pos.IsValid() {
				h.Report(&paths.Summary{Name: m.pc.Root}, paths.Item{Pos: m.pos, End: m.end, Merged: true}, fs)
				continue
			}
			g := groups[site]
			if g == nil {
				g = &group{pos: pos, caller: firstPath(fs).Chain[i-1], reach: map[string][]paths.Reach{}}
				groups[site] = g
				order = append(order, site)
			}
			for _, f := range fs {
				t := f.From(i)
				k := site + "|" + rule + "|" + t.Terminal()
				if in.reported[k] {
					continue // another root's path to the same operation
				}
				in.reported[k] = true
				in.keys = append(in.keys, k)
				g.fs = append(g.fs, t)
			}
			g.reach[rule] = append(g.reach[rule], paths.Reach{Root: m.pc.Root, Site: m.pc.Site, Pos: m.pos})
		}
	}
	for _, key := range order {
		g := groups[key]
		if len(g.fs) == 0 {
			continue
		}
		sort.SliceStable(g.fs, func(i, j int) bool { return g.fs[i].Better(g.fs[j]) })
		h.Report(&paths.Summary{Name: g.caller}, paths.Item{Pos: g.pos, Merged: true, Reached: g.reach}, g.fs)
	}
}

// firstPath is the first of fs that keeps its path (not a Ref).
func firstPath(fs []*paths.Finding) *paths.Finding {
	for _, f := range fs {
		if !f.Ref {
			return f
		}
	}
	return fs[0]
}
