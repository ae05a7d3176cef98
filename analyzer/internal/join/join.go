package join

import (
	"go/token"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// PendingFact carries the interface calls made at request roots' calls
// (this package's and, under go vet, those it carries) up to the
// packages that may see their bindings.
type PendingFact struct {
	Calls []paths.PendingCall
	// Dropped are SIO002 candidates at roots' calls whose callee's only
	// evidence of I/O is interface calls (rules' dropped.go): decided at
	// the join, where the bindings are seen.
	Dropped []Dropped
}

// AFact marks PendingFact as a package fact.
func (*PendingFact) AFact() {}

// String is the fact as the tests' // want lines state it.
func (f *PendingFact) String() string {
	if len(f.Dropped) > 0 {
		return "pending(" + strconv.Itoa(len(f.Calls)) + ", dropped " + strconv.Itoa(len(f.Dropped)) + ")"
	}
	return "pending(" + strconv.Itoa(len(f.Calls)) + ")"
}

// ConvFact carries a package's conversions to followed interfaces and
// its stores into slots, and what its places of interface type hold
// (holds.go).
type ConvFact struct {
	Convs []paths.Conv
	Holds []dispatch.Hold
}

// AFact marks ConvFact as a package fact.
func (*ConvFact) AFact() {}

// String is the fact as the tests' // want lines state it: holds(n)
// for a package that converts nothing but stores into places.
func (f *ConvFact) String() string {
	if len(f.Convs) == 0 {
		return "holds(" + strconv.Itoa(len(f.Holds)) + ")"
	}
	return "convs(" + strconv.Itoa(len(f.Convs)) + ")"
}

// JoinedFact carries the (site, rule, operation) keys reported at roots'
// calls, so that a package above reports none of them again.
type JoinedFact struct{ Keys []string }

// AFact marks JoinedFact as a package fact.
func (*JoinedFact) AFact() {}

// String is the fact as the tests' // want lines state it.
func (f *JoinedFact) String() string { return "joined(" + strconv.Itoa(len(f.Keys)) + ")" }

// MaxDepth bounds how many interface hops a join follows (handler
// → service interface → repository interface → driver interface).
//
// MaxWork bounds the bindings one pending call visits in all, over
// every hop: a call through a slot with hundreds of stored functions, each
// reaching a hook chain through the same slot again, would otherwise
// multiply at every hop.
const (
	MaxDepth = 4
	MaxWork  = 1 << 15
	// MaxArgWork bounds the bindings that the func arguments of one
	// pending call's interface calls visit in all (args.go), and MaxArgDynWork those of one interface call inside such an argument.
	MaxArgWork    = 1 << 12
	MaxArgDynWork = 1 << 9
)

// Dropped is a deferred SIO002 candidate at a root's call, carried in
// PendingFact and decided by the rule (rules' dropped.go, Hooks.Decide).
type Dropped = rules.Dropped

// Own is what this package brings to its join: its pending calls,
// deferred candidates and conversions, and the (site, rule, operation)
// keys its static paths reported at its roots' calls.
type Own struct {
	Pending []paths.PendingCall
	Dropped []Dropped
	Convs   []paths.Conv
	Holds   []dispatch.Hold
	Emitted map[string]bool
}

// Hooks are what only the analyzer knows, handed to the join as
// function values (as dispatch.Walk is told what a payload leads to).
type Hooks struct {
	// Export exports a package fact of this package's.
	Export func(analysis.Fact)
	// Walk is the dispatch walk over the bindings.
	Walk func(*paths.Bindings) *dispatch.Walk[paths.BlocksFact, *paths.Finding]
	// Apply applies the configuration and the suppressions recorded on
	// the way to a dispatched finding; nil when nothing is left.
	Apply func(paths.PendingCall, *paths.Finding) *paths.Finding
	// SitePos is the position of a "file:line:col" site, or NoPos where
	// this pass cannot place it.
	SitePos func(site string) token.Pos
	// Report reports the paths at a root's call.
	Report func(*paths.Summary, paths.Item, []*paths.Finding)
	// Decide decides a deferred SIO002 candidate against the bindings,
	// given what was reported; key is what it reported.
	Decide func(dc Dropped, b *paths.Bindings, reported map[string]bool) (key string, ok bool)
}

// input is what a package's join works on: its own pending calls,
// deferred candidates and conversions with those of every package below
// it, and what was reported already (JoinedFact keys, and the static
// paths this package reported at its roots' calls).
type input struct {
	pending  []paths.PendingCall
	dropped  []Dropped
	convs    []paths.Conv
	holds    []dispatch.Hold
	reported map[string]bool
	// below are the (site, rule) pairs a package below reported, as
	// "site|rule": a diagnostic there is printed already (relocate.go).
	below map[string]bool
	// keys are the reported keys this package adds for the packages
	// above it (its JoinedFact).
	keys []string
}

// gather exports this package's pending calls and conversions and
// reads those of the packages below it (below, in the fixed order the
// analyzer reads them: by import path).
func gather(own Own, below []analysis.Fact, export func(analysis.Fact)) *input {
	if len(own.Pending) > 0 || len(own.Dropped) > 0 {
		export(&PendingFact{Calls: own.Pending, Dropped: own.Dropped})
	}
	if len(own.Convs) > 0 || len(own.Holds) > 0 {
		export(&ConvFact{Convs: own.Convs, Holds: own.Holds})
	}
	in := &input{pending: own.Pending, dropped: own.Dropped, convs: own.Convs, holds: own.Holds, reported: map[string]bool{}, below: map[string]bool{}}
	// The static paths this package reported at its roots' calls count
	// as reported, here and (for calls with pending dispatch) above.
	pendingSites := map[string]bool{}
	for _, pc := range own.Pending {
		pendingSites[pc.Site] = true
	}
	for k := range own.Emitted {
		in.reported[k] = true
		if site, _, _ := strings.Cut(k, "|"); pendingSites[site] {
			in.keys = append(in.keys, k)
		}
	}
	sort.Strings(in.keys)
	// Drivers hand the package facts over in map order. The order decides
	// which of several bindings to one blocking operation leads a
	// diagnostic (its "bound to … in …" label) and the order of reports,
	// so it is fixed: by import path, after this package's own.
	for _, fact := range below {
		switch f := fact.(type) {
		case *ConvFact:
			in.convs = append(in.convs, f.Convs...)
			in.holds = append(in.holds, f.Holds...)
		case *PendingFact:
			in.pending = append(in.pending, f.Calls...)
			in.dropped = append(in.dropped, f.Dropped...)
		case *JoinedFact:
			for _, k := range f.Keys {
				in.reported[k] = true
				if site, rest, ok := strings.Cut(k, "|"); ok {
					rule, _, _ := strings.Cut(rest, "|")
					in.below[site+"|"+rule] = true
				}
			}
		}
	}
	return in
}

// Run resolves the pending interface calls this package sees against
// the conversions it sees, reports what no dependency reported, and
// exports what this package adds for the packages above it.
//
// It returns, by site, for the roots report, the calls through a func
// field that the walk followed to none of the functions stored there, and
// the calls a bound of the walk cut after some (dispatch.Unfollowed.Partial).
func Run(own Own, below []analysis.Fact, h Hooks) map[string]dispatch.Unfollowed {
	in := gather(own, below, h.Export)
	if (len(in.pending) == 0 || len(in.convs) == 0) && len(in.dropped) == 0 {
		if len(in.keys) > 0 {
			h.Export(&JoinedFact{Keys: in.keys})
		}
		return nil
	}
	b := dispatch.Index(in.convs)
	b.AddHolds(in.holds)
	w := h.Walk(b)
	// The pending calls at one root's call (its callee makes several
	// interface calls) are reported together, as a static path is: one
	// diagnostic per rule, with the rule's other operations listed.
	var sites []string
	atSite := map[string][]paths.PendingCall{}
	for _, pc := range in.pending {
		if atSite[pc.Site] == nil {
			sites = append(sites, pc.Site)
		}
		atSite[pc.Site] = append(atSite[pc.Site], pc)
	}
	var moved []movedAt
	for _, site := range sites {
		pcs := atSite[site]
		pc := pcs[0] // root and end are the same for every call at the site
		var fs []*paths.Finding
		for _, p := range pcs {
			b.Start(MaxWork, MaxArgWork)
			for _, f := range w.Dispatch(p.Dyn) {
				if g := h.Apply(p, f); g != nil {
					fs = append(fs, g)
				}
			}
		}
		// The highest-ranked path of a rule leads its diagnostic; the
		// rule's other blocking operations are listed after it (report).
		sort.SliceStable(fs, func(i, j int) bool { return fs[i].Better(fs[j]) })
		// A (call, rule, blocking operation) is reported once: a package
		// that sees more bindings than the one below it adds only the
		// operations that were not shown yet.
		var fresh []*paths.Finding
		for _, f := range fs {
			g := *f
			term := f.Terminal()
			if g.Rule != "" && in.reported[pc.Site+"|"+g.Rule+"|"+term] {
				g.Rule = ""
			}
			if g.Lock != "" && in.reported[pc.Site+"|SIO003|"+term] {
				g.Lock = ""
			}
			if g.Rule == "" && g.Lock == "" {
				continue
			}
			fresh = append(fresh, &g)
			for _, k := range []string{g.Rule, "SIO003"} {
				if k == "" || (k == "SIO003" && g.Lock == "") {
					continue
				}
				key := pc.Site + "|" + k + "|" + term
				if !in.reported[key] {
					in.reported[key] = true
					in.keys = append(in.keys, key)
				}
			}
		}
		pos := h.SitePos(pc.Site)
		if len(fresh) == 0 || !pos.IsValid() {
			continue
		}
		// A rule a package below reported at this call has its diagnostic
		// printed already: what this package adds to it is reported where
		// its binding is called (relocate.go).
		end := h.SitePos(pc.EndSite)
		if !end.IsValid() || end < pos {
			end = token.NoPos
		}
		var here []*paths.Finding
		m := movedAt{pc: pc, pos: pos, end: end}
		for _, f := range fresh {
			stay, move := split(f, func(rule string) bool { return in.below[pc.Site+"|"+rule] })
			if stay != nil {
				here = append(here, stay)
			}
			m.fs = append(m.fs, move...)
		}
		if len(m.fs) > 0 {
			moved = append(moved, m)
		}
		if len(here) > 0 {
			h.Report(&paths.Summary{Name: pc.Root}, paths.Item{Pos: pos, End: end, Merged: true}, here)
		}
	}
	relocate(moved, in, h)
	for _, dc := range in.dropped {
		if key, ok := h.Decide(dc, b, in.reported); ok {
			in.reported[key] = true
			in.keys = append(in.keys, key)
		}
	}
	if len(in.keys) > 0 {
		h.Export(&JoinedFact{Keys: in.keys})
	}
	return b.Unfollowed
}
