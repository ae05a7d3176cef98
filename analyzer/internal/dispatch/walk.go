package dispatch

import (
	"slices"
	"strconv"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// Walk follows interface calls (DynCall) through the bindings a joining
// package sees, to the paths behind them: one per bound concrete method
// (or func stored in a slot) that does something, following nested
// interface calls one hop at a time, and the func arguments of a call into
// the bindings that call them on the spot.
//
// It is generic over the analyzer's summary F, which it never reads, and
// the path P the analyzer makes of one: the functions say what only the
// analyzer knows (what an F does, how a path holds a lock), so that the
// walk knows no rule.
type Walk[F, P any] struct {
	B *Bindings[F]

	// MaxDepth bounds the interface hops followed (handler → service
	// interface → repository interface → driver interface).
	MaxDepth int
	// MaxTargets bounds the functions one call through a slot is led to.
	MaxTargets int
	// ArgDynWork bounds the bindings one interface call inside a func
	// argument visits (B.ArgBudget bounds them all).
	ArgDynWork int

	// Opaque reports whether f hands its context to a call the analysis
	// cannot follow (B.Opaque is set when a binding followed does).
	Opaque func(f *F) bool
	// Dyn returns f's interface calls, seen from f.
	Dyn func(f *F) []DynCall[F]
	// Paths returns f's own paths, each after prefix and sites (the chain
	// to f from the interface call's caller).
	Paths func(f *F, prefix, sites []string) []P
	// Given returns what f leads to at a call whose arguments give
	// given (DynCall.Given): f, or f without what runs only under a nil
	// context the call passes. Nil: f.
	Given func(f *F, given []string) *F
	// Held marks a path reached through a nested interface call with the
	// lock held at the call that led there, when the path holds none and
	// a lock makes a finding of it.
	Held func(p P, lock string)
}

// Dispatch returns the paths behind one interface call. The caller resets
// B's Budget, ArgBudget and Explored for each pending call.
func (w *Walk[F, P]) Dispatch(d DynCall[F]) []P {
	return w.dispatch(d, 0, map[string]bool{})
}

func (w *Walk[F, P]) dispatch(d DynCall[F], depth int, visiting map[string]bool) []P {
	b := w.B
	// A receiver read from a field, a variable or a parameter is
	// dispatched to the types stored there, when every store is seen.
	// When some are seen and not all, every binding is followed, and
	// those not seen stored there say so in the chain.
	var only, partial map[string]bool
	if d.Method != "" && len(d.Holds) > 0 {
		if ts, all := b.Held(d.Holds); all {
			only = ts
		} else if len(ts) > 0 {
			partial = ts
		}
	}
	if len(only) == 1 {
		// Dispatched to the one type stored there: as certain as a
		// static call, so no interface hop is counted (a settings chain
		// of adapters, each keeping the next in a field, would
		// otherwise end before the store behind it).
		depth--
	}
	if depth >= w.MaxDepth || (d.Dep && !b.Own[d.Method]) || visiting[d.Key()] {
		return nil
	}
	if d.Method == "" && d.One && len(b.Stored[d.Iface]) != 1 {
		// A field of one value, stored into at several places: which of
		// them filled this value is not known here (two order.Services
		// literals, one blocking and one not), so none is followed, and
		// the call is recorded as unfollowed. Nor is a standard-library
		// field (http.Transport.DialContext), whose places are not
		// recorded: the tables judge its I/O, so it is no blind spot.
		if len(b.Stored[d.Iface]) > 1 && b.doing(d.Iface) {
			b.unfollow(d, WhyPlaces)
		}
		return nil
	}
	if d.Method == "" && d.Sig == "" && len(b.Sigs[d.Iface]) > 1 {
		// A generic type's field called in generic code (v.Action(e) in
		// Router[T]), where functions of several types are stored: which
		// instantiation the call reads is not known here (one hook's
		// Handler[T].Func holds route middlewares, another's shutdown
		// hooks), so none is followed.
		b.unfollow(d, WhyTypes)
		return nil
	}
	// The same interface call reached again on another path, at the same
	// depth with the same lock and ignores, leads to the same operations:
	// the join keeps the first path to each, so it is explored once.
	done := d.Key() + "|" + strconv.Itoa(depth) + "|" + d.Lock + "|" + strings.Join(d.Ignore, ",")
	if b.Explored[done] {
		return nil
	}
	b.Explored[done] = true
	visiting[d.Key()] = true
	defer delete(visiting, d.Key())
	var out []P
	last := len(d.Chain) - 1
	reach := b.Reaching(d.Iface)
	targets, followed := 0, 0
	cs := b.ByMethod[d.Method]
	for i, c := range cs {
		if !reach[c.Iface] || (d.Dep && c.Dep) {
			// A dependency's call bound to the dependency's own type
			// (a pool's connection, a driver's statement) is its
			// plumbing: the tables judge its I/O where the program
			// calls it.
			continue
		}
		if only != nil && !only[c.Type] {
			continue // never stored where the call reads
		}
		if b.Budget--; b.Budget < 0 {
			// The first call the bound cuts is named; those after it
			// on the same pending call go unvisited with it.
			if b.Budget == -1 {
				b.cut(d, followed, followed+left(d, cs[i:], reach, only), true)
			}
			break
		}
		cm := c.Method(d.Method)
		ifaceName := d.Iface
		if i := strings.LastIndexByte(ifaceName, '/'); i >= 0 {
			ifaceName = ifaceName[i+1:]
		}
		label := ""
		if partial != nil && !partial[c.Type] {
			label = WhyUnseen
		}
		entry := d.Chain[last] + " (" + ifaceName + ", bound to " + c.Type + " in " + c.Where + label + ")"
		method := MethodName(c.Type, d.Method)
		if d.Method == "" {
			// A call through a slot: c is a function stored there.
			if d.Sig != "" && c.Sig != "" && c.Sig != d.Sig {
				continue // another instantiation's
			}
			if targets++; targets > w.MaxTargets {
				b.cut(d, followed, followed+left(d, cs[i:], reach, only), false)
				break
			}
			entry = d.Chain[last] + " (via the func stored in " + resolve.SlotName(d.Iface) + " by " + c.Where + ")"
			method = c.Type
		}
		followed++
		// The path up to and including the interface call, then the
		// concrete method at the same site.
		prefix := append(append([]string(nil), d.Chain[:last]...), entry, method)
		sites := append(append([]string(nil), d.Sites...), d.Sites[last])
		f := cm.Fact
		if w.Given != nil {
			f = w.Given(f, d.Given)
		}
		out = append(out, w.follow(d, f, prefix, sites, depth, visiting, 0)...)
		// The func arguments the bound method calls on the spot run on
		// the caller's path, after the method in the chain.
		for _, a := range d.Args {
			if b.ArgBudget <= 0 {
				break
			}
			if !slices.Contains(cm.Calls, a.Param) {
				continue
			}
			p := append(append([]string(nil), prefix...), a.Name)
			s := append(append([]string(nil), sites...), a.Site)
			out = append(out, w.follow(d, a.Fact, p, s, depth, visiting, w.ArgDynWork)...)
		}
	}
	return out
}

// follow returns the paths of f (a bound method, or a func argument it
// calls) after prefix, the chain to it from d's caller, following its
// interface calls one hop deeper. With sub > 0 (a func argument), each of
// those interface calls may visit at most sub bindings, counted against
// B.ArgBudget too: a literal full of repository calls
// (tx.Album(ctx).Get(id), …) is followed as far as that goes, and the
// calls written after them still get their share.
func (w *Walk[F, P]) follow(d DynCall[F], f *F, prefix, sites []string, depth int, visiting map[string]bool, sub int) []P {
	b := w.B
	if w.Opaque(f) {
		b.Opaque = true
	}
	out := w.Paths(f, prefix, sites)
	for _, nd := range w.Dyn(f) {
		if (depth+1 >= w.MaxDepth && (len(nd.Holds) == 0 || depth+1 > w.MaxDepth)) || (nd.Dep && !b.Own[nd.Method]) {
			// Past the last hop, or nothing the program converts has
			// the method: a dependency's call here leads nowhere, and
			// copying its chain for every binding cost more memory than
			// all the rest of the join (pocketbase). A call one hop past
			// the last, whose receiver's stores are recorded, may still
			// go to one stored type, which dispatch counts as no hop.
			continue
		}
		nd.Chain = append(append([]string(nil), prefix...), nd.Chain...)
		nd.Sites = append(append([]string(nil), sites...), nd.Sites...)
		if nd.Lock == "" {
			nd.Lock = d.Lock
		}
		nd.Ignore = Union(nd.Ignore, d.Ignore)
		saved := b.Budget
		if sub > 0 {
			if b.ArgBudget <= 0 {
				break
			}
			b.Budget = min(saved, sub, b.ArgBudget)
		}
		start := b.Budget
		ps := w.dispatch(nd, depth+1, visiting)
		if sub > 0 {
			used := start - max(b.Budget, 0)
			b.Budget = saved - used
			b.ArgBudget -= used
		}
		// The lock held at the call that led here is held over every
		// path behind the nested call, and so is the nested call's own,
		// over its bindings' own paths too; the outer one is named
		// first.
		for _, p := range ps {
			if d.Lock != "" {
				w.Held(p, d.Lock)
			}
			if nd.Lock != "" {
				w.Held(p, nd.Lock)
			}
			out = append(out, p)
		}
	}
	return out
}

// WhyUnseen ends a binding's label in a chain when the call's receiver
// is read from a place that holds other types, but some of whose stores
// are not seen, so that every binding was followed.
const WhyUnseen = "; not seen stored there"

// Why a call through a slot was followed to none of the functions stored
// there (Bindings.Unfollowed).
const (
	WhyPlaces = "is filled at several places"
	WhyTypes  = "holds functions of several types"
)

// Unfollowed is a call through a slot that the walk followed to none of
// the functions stored there, or a call (through a slot or an interface)
// that a bound of the walk cut after some of them (Partial).
type Unfollowed struct {
	Slot string // the slot's name and why: "hook.Handler[T].Func holds functions of several types"
	// Types are the types of the functions stored there (Sig), when
	// there are several: one of them is the handlers', which a caller
	// can name as roots.
	Types []string
	// Partial marks a call followed to some of what it may run: the
	// rest was cut by Walk.MaxTargets or by B.Budget (see cut).
	Partial bool
}

// unfollow records d's call as one the walk could not follow, so that the
// roots report says what runs there is unseen instead of reading as clean.
func (b *Bindings[F]) unfollow(d DynCall[F], why string) {
	site := d.Sites[len(d.Sites)-1]
	if _, ok := b.Unfollowed[site]; ok {
		return
	}
	u := Unfollowed{Slot: resolve.SlotName(d.Iface) + " " + why}
	if why == WhyTypes {
		for t := range b.Sigs[d.Iface] {
			u.Types = append(u.Types, t)
		}
		slices.Sort(u.Types)
	}
	b.Unfollowed[site] = u
}

// cut records d's call as one a bound of the walk cut after followed of
// the total functions (or bound methods) it may run, once per site, so
// that the roots report says the rest is unseen rather than letting the
// findings of the first read as all there is. byWork names the work
// bound of the pending call (B.Budget), otherwise the bound on the
// functions one call through a slot is led to (Walk.MaxTargets).
func (b *Bindings[F]) cut(d DynCall[F], followed, total int, byWork bool) {
	site := d.Sites[len(d.Sites)-1]
	if _, ok := b.Unfollowed[site]; ok {
		return
	}
	what := resolve.SlotName(d.Iface) + " holds " + strconv.Itoa(total) + " functions"
	if d.Method != "" {
		what = resolve.SlotName(d.Iface) + "." + d.Method + " is bound to " + strconv.Itoa(total) + " methods"
	}
	how := " and syncio follows at most " + strconv.Itoa(followed) + " per call"
	if byWork {
		how = " and syncio followed " + strconv.Itoa(followed) + " before its work bound for the root's call ran out"
	}
	b.Unfollowed[site] = Unfollowed{Slot: what + how, Partial: true}
}

// left counts the bindings of cs that d's walk would lead to, as the
// loop in dispatch filters them: what a cut leaves unfollowed.
func left[F any](d DynCall[F], cs []*Conv[F], reach, only map[string]bool) int {
	n := 0
	for _, c := range cs {
		if !reach[c.Iface] || (d.Dep && c.Dep) || (only != nil && !only[c.Type]) ||
			(d.Method == "" && d.Sig != "" && c.Sig != "" && c.Sig != d.Sig) {
			continue
		}
		n++
	}
	return n
}

// doing reports whether some function stored in slot does something: the
// analyzer records a stored function as a binding only then, and a
// place wherever one is stored, so a field filled at several places
// with functions that do nothing hides nothing.
func (b *Bindings[F]) doing(slot string) bool {
	for _, c := range b.ByMethod[""] {
		if c.Iface == slot {
			return true
		}
	}
	return false
}
