package dispatch

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wf stands for the analyzer's summary: one path of its own (an
// operation's name, "" for none), its interface calls, and whether it
// hands its context to something unseen.
type wf struct {
	op     string
	dyn    []DynCall[wf]
	opaque bool
	// free marks an operation a lock does not make a finding of.
	free bool
}

// wp is a path the walk returns.
type wp struct {
	chain, sites []string
	lock         string
	free         bool
}

func testWalk(convs []Conv[wf]) *Walk[wf, *wp] {
	b := Index(convs)
	b.Start(1<<10, 1<<10)
	return &Walk[wf, *wp]{
		B: b, MaxDepth: 2, MaxTargets: 2, ArgDynWork: 8,
		Opaque: func(f *wf) bool { return f.opaque },
		Dyn:    func(f *wf) []DynCall[wf] { return f.dyn },
		Paths: func(f *wf, prefix, sites []string) []*wp {
			if f.op == "" {
				return nil
			}
			return []*wp{{chain: append(slices.Clone(prefix), f.op), sites: append(slices.Clone(sites), ""), free: f.free}}
		},
		Held: func(p *wp, lock string) {
			if p.lock == "" && !p.free {
				p.lock = lock
			}
		},
	}
}

func call(iface, method string, chain ...string) DynCall[wf] {
	d := DynCall[wf]{Iface: iface, Method: method, Chain: chain}
	for i := range chain {
		d.Sites = append(d.Sites, "h.go:"+string(rune('1'+i)))
	}
	return d
}

func bound(typ, iface, where, method string, f wf, calls ...int) Conv[wf] {
	return Conv[wf]{Type: typ, Iface: iface, Where: where, Methods: []ConvMethod[wf]{{Name: method, Fact: &f, Calls: calls}}}
}

func TestWalk(t *testing.T) {
	const store, inner, slot = "ex.com/api.Store", "ex.com/db.Inner", "ex.com/router.Route.Action"
	query := wf{op: "database/sql.(*DB).Query"}
	nested := call(inner, "Run", "r.Run")
	tests := []struct {
		name  string
		convs []Conv[wf]
		call  DynCall[wf]
		want  []string // each path's chain, " → " between entries, then "@lock" when held
	}{
		{
			name:  "bound method",
			convs: []Conv[wf]{bound("*db.SQL", store, "main.main", "Get", query)},
			call:  call(store, "Get", "h.Get", "s.Get"),
			want:  []string{"h.Get → s.Get (api.Store, bound to *db.SQL in main.main) → db.(*SQL).Get → database/sql.(*DB).Query"},
		},
		{
			name:  "unbound interface",
			convs: []Conv[wf]{bound("*db.SQL", inner, "main.main", "Get", query)},
			call:  call(store, "Get", "s.Get"),
		},
		{
			name:  "bound through an interface converted to the called one",
			convs: []Conv[wf]{bound("*db.SQL", inner, "main.main", "Get", query), {From: inner, Iface: store}},
			call:  call(store, "Get", "s.Get"),
			want:  []string{"s.Get (api.Store, bound to *db.SQL in main.main) → db.(*SQL).Get → database/sql.(*DB).Query"},
		},
		{
			name: "a dependency's call is left to the dependency's own types",
			convs: []Conv[wf]{func() Conv[wf] {
				c := bound("*pool.Conn", store, "pool.New", "Get", query)
				c.Dep = true
				return c
			}()},
			call: func() DynCall[wf] { d := call(store, "Get", "s.Get"); d.Dep = true; return d }(),
		},
		{
			name: "a dependency's call is left to the dependency's own types when the program has the method elsewhere",
			convs: []Conv[wf]{
				func() Conv[wf] {
					c := bound("*pool.Conn", store, "pool.New", "Get", query)
					c.Dep = true
					return c
				}(),
				bound("*db.SQL", inner, "main.main", "Get", query),
			},
			call: func() DynCall[wf] { d := call(store, "Get", "s.Get"); d.Dep = true; return d }(),
		},
		{
			name:  "a dependency's call reaches the program's type",
			convs: []Conv[wf]{bound("*db.SQL", store, "main.main", "Get", query)},
			call:  func() DynCall[wf] { d := call(store, "Get", "s.Get"); d.Dep = true; return d }(),
			want:  []string{"s.Get (api.Store, bound to *db.SQL in main.main) → db.(*SQL).Get → database/sql.(*DB).Query"},
		},
		{
			name: "a nested interface call, with the caller's lock",
			convs: []Conv[wf]{
				bound("*svc.S", store, "main.main", "Get", wf{dyn: []DynCall[wf]{nested}}),
				bound("*db.R", inner, "main.main", "Run", query),
			},
			call: func() DynCall[wf] { d := call(store, "Get", "s.Get"); d.Lock = "mu"; return d }(),
			want: []string{"s.Get (api.Store, bound to *svc.S in main.main) → svc.(*S).Get → r.Run (db.Inner, bound to *db.R in main.main) → db.(*R).Run → database/sql.(*DB).Query@mu"},
		},
		{
			name: "a lock does not make a finding of every path",
			convs: []Conv[wf]{
				bound("*svc.S", store, "main.main", "Get", wf{dyn: []DynCall[wf]{nested}}),
				bound("*db.R", inner, "main.main", "Run", wf{op: "cpu", free: true}),
			},
			call: func() DynCall[wf] { d := call(store, "Get", "s.Get"); d.Lock = "mu"; return d }(),
			want: []string{"s.Get (api.Store, bound to *svc.S in main.main) → svc.(*S).Get → r.Run (db.Inner, bound to *db.R in main.main) → db.(*R).Run → cpu"},
		},
		{
			name: "hops beyond MaxDepth are not followed",
			convs: []Conv[wf]{
				bound("*a.A", store, "main.main", "Get", wf{dyn: []DynCall[wf]{call(inner, "Run", "x.Run")}}),
				bound("*b.B", inner, "main.main", "Run", wf{dyn: []DynCall[wf]{call(slot+"X", "Do", "y.Do")}}),
				bound("*c.C", slot+"X", "main.main", "Do", query),
			},
			call: call(store, "Get", "s.Get"),
		},
		{
			name: "a call reached again inside itself stops",
			convs: []Conv[wf]{
				bound("*a.A", store, "main.main", "Get", wf{op: "os.Open", dyn: []DynCall[wf]{call(store, "Get", "s.Get")}}),
			},
			call: call(store, "Get", "s.Get"),
			want: []string{"s.Get (api.Store, bound to *a.A in main.main) → a.(*A).Get → os.Open"},
		},
		{
			name:  "a func stored in a slot",
			convs: []Conv[wf]{{Type: "app.save", Iface: slot, Where: "app.Register", Methods: []ConvMethod[wf]{{Fact: &query}}}},
			call:  call(slot, "", "rt.Action"),
			want:  []string{"rt.Action (via the func stored in router.Route.Action by app.Register) → app.save → database/sql.(*DB).Query"},
		},
		{
			name: "at most MaxTargets funcs of a slot",
			convs: []Conv[wf]{
				{Type: "app.a", Iface: slot, Where: "app.R", Methods: []ConvMethod[wf]{{Fact: &query}}},
				{Type: "app.b", Iface: slot, Where: "app.R", Methods: []ConvMethod[wf]{{Fact: &query}}},
				{Type: "app.c", Iface: slot, Where: "app.R", Methods: []ConvMethod[wf]{{Fact: &query}}},
			},
			call: call(slot, "", "rt.Action"),
			want: []string{
				"rt.Action (via the func stored in router.Route.Action by app.R) → app.a → database/sql.(*DB).Query",
				"rt.Action (via the func stored in router.Route.Action by app.R) → app.b → database/sql.(*DB).Query",
			},
		},
		{
			name: "a field of one value stored into at two places",
			convs: []Conv[wf]{
				{Type: "app.save", Iface: slot, Where: "app.A", Site: "a.go:1", Methods: []ConvMethod[wf]{{Fact: &query}}},
				{Type: "app.idle", Iface: slot, Where: "app.B", Site: "b.go:1"},
			},
			call: func() DynCall[wf] { d := call(slot, "", "o.Action"); d.One = true; return d }(),
		},
		{
			name: "a field of one value stored into at one place",
			convs: []Conv[wf]{
				{Type: "app.save", Iface: slot, Where: "app.A", Site: "a.go:1", Methods: []ConvMethod[wf]{{Fact: &query}}},
			},
			call: func() DynCall[wf] { d := call(slot, "", "o.Action"); d.One = true; return d }(),
			want: []string{"o.Action (via the func stored in router.Route.Action by app.A) → app.save → database/sql.(*DB).Query"},
		},
		{
			name: "an instance's field follows only its type's funcs",
			convs: []Conv[wf]{
				{Type: "app.a", Iface: slot, Where: "app.R", Sig: "func(int)", Methods: []ConvMethod[wf]{{Fact: &query}}},
				{Type: "app.b", Iface: slot, Where: "app.R", Sig: "func(string)", Methods: []ConvMethod[wf]{{Fact: &query}}},
			},
			call: func() DynCall[wf] { d := call(slot, "", "rt.Action"); d.Sig = "func(string)"; return d }(),
			want: []string{"rt.Action (via the func stored in router.Route.Action by app.R) → app.b → database/sql.(*DB).Query"},
		},
		{
			name: "generic code's call of a field holding funcs of two types",
			convs: []Conv[wf]{
				{Type: "app.a", Iface: slot, Where: "app.R", Sig: "func(int)", Methods: []ConvMethod[wf]{{Fact: &query}}},
				{Type: "app.b", Iface: slot, Where: "app.R", Sig: "func(string)", Methods: []ConvMethod[wf]{{Fact: &query}}},
			},
			call: call(slot, "", "rt.Action"),
		},
		{
			name:  "a func argument the binding calls on the spot",
			convs: []Conv[wf]{bound("*db.SQL", store, "main.main", "WithTx", wf{}, 0)},
			call: func() DynCall[wf] {
				d := call(store, "WithTx", "s.WithTx")
				d.Args = []DynArg[wf]{{Param: 0, Name: "func literal at h.go:9", Site: "h.go:9", Fact: &query}}
				return d
			}(),
			want: []string{"s.WithTx (api.Store, bound to *db.SQL in main.main) → db.(*SQL).WithTx → func literal at h.go:9 → database/sql.(*DB).Query"},
		},
		{
			name:  "a func argument the binding keeps",
			convs: []Conv[wf]{bound("*db.SQL", store, "main.main", "WithTx", wf{})},
			call: func() DynCall[wf] {
				d := call(store, "WithTx", "s.WithTx")
				d.Args = []DynArg[wf]{{Param: 0, Name: "func literal at h.go:9", Site: "h.go:9", Fact: &query}}
				return d
			}(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range testWalk(tt.convs).Dispatch(tt.call) {
				if len(p.sites) != len(p.chain) {
					t.Errorf("%d sites for %d chain entries: %q", len(p.sites), len(p.chain), p.sites)
				}
				s := strings.Join(p.chain, " → ")
				if p.lock != "" {
					s += "@" + p.lock
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("paths\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestWalkBudgets checks the work bounds and the opaque mark: a walk with
// no budget left visits nothing, and a binding that hands its context to
// something unseen marks the bindings even when it has no path.
func TestWalkBudgets(t *testing.T) {
	const store = "ex.com/api.Store"
	w := testWalk([]Conv[wf]{bound("*db.SQL", store, "main.main", "Get", wf{op: "os.Open"})})
	w.B.Budget = 0
	if ps := w.Dispatch(call(store, "Get", "s.Get")); len(ps) != 0 {
		t.Errorf("no budget: %d paths, want 0", len(ps))
	}

	w = testWalk([]Conv[wf]{bound("*db.SQL", store, "main.main", "Get", wf{opaque: true})})
	if ps := w.Dispatch(call(store, "Get", "s.Get")); len(ps) != 0 || !w.B.Opaque {
		t.Errorf("opaque binding: %d paths, Opaque %v; want 0, true", len(ps), w.B.Opaque)
	}

	// The same call again in the same pending call's walk is explored once.
	w = testWalk([]Conv[wf]{bound("*db.SQL", store, "main.main", "Get", wf{op: "os.Open"})})
	d := call(store, "Get", "s.Get")
	if a, b := len(w.Dispatch(d)), len(w.Dispatch(d)); a != 1 || b != 0 {
		t.Errorf("explored twice: %d then %d paths, want 1 then 0", a, b)
	}
}

func TestIndex(t *testing.T) {
	const store, inner, slot = "ex.com/api.Store", "ex.com/db.Inner", "ex.com/router.Route.Action"
	c := bound("*pool.Conn", store, "pool.New", "Get", wf{})
	c.Dep = true
	b := Index([]Conv[wf]{
		c,
		bound("*db.SQL", inner, "main.main", "Put", wf{}),
		{From: inner, Iface: store},
		{Type: "app.save", Iface: slot, Where: "app.A", Site: "a.go:1", Sig: "func(int)", Methods: []ConvMethod[wf]{{}}},
		{Type: "cache.Mem", Iface: "ex.com/api.Cache", Where: "main.main"},
	})
	if !b.Own["Put"] || b.Own["Get"] {
		t.Errorf("Own = %v, want Put only (Get is a dependency's)", b.Own)
	}
	if !b.Reaching(store)[inner] || b.Reaching(inner)[store] {
		t.Errorf("Reaching: an edge %s → %s goes one way", inner, store)
	}
	if !b.Bound["ex.com/api.Cache"] || b.Bound["ex.com/api.Other"] {
		t.Errorf("Bound = %v: an idle binding counts, nothing else", b.Bound)
	}
	if !b.Stored[slot]["a.go:1"] || !b.Sigs[slot]["func(int)"] || len(b.ByMethod[""]) != 1 {
		t.Errorf("slot: Stored %v, Sigs %v, %d funcs", b.Stored[slot], b.Sigs[slot], len(b.ByMethod[""]))
	}
}

// TestWalkRecordsUnfollowed: a call through a slot that the walk leads to
// none of the functions stored there is recorded with the slot and why,
// once per site and whatever Start resets: a generic field of several
// types called in generic code, a field of one value filled at several
// places. A field of one value with no recorded place (the standard
// library's) is not: the tables judge its I/O.
func TestWalkRecordsUnfollowed(t *testing.T) {
	const gen, one, std = "ex.com/hook.Handler.Func", "ex.com/router.Services.Profile", "net/http.Transport.DialContext"
	sleep := wf{op: "time.Sleep"}
	stored := func(slot, site, sig string) Conv[wf] {
		f := sleep
		return Conv[wf]{Type: "app.f" + site, Iface: slot, Where: "app.A", Site: site, Sig: sig, Methods: []ConvMethod[wf]{{Fact: &f}}}
	}
	w := testWalk([]Conv[wf]{
		stored(gen, "a.go:1", "func(int)"), stored(gen, "a.go:2", "func(string)"),
		stored(one, "b.go:1", ""), stored(one, "b.go:2", ""),
	})
	for _, d := range []DynCall[wf]{
		{Iface: gen, Chain: []string{"h.Func"}, Sites: []string{"hook.go:9:2"}},
		{Iface: one, One: true, Chain: []string{"w.svc.Profile"}, Sites: []string{"router.go:5:3"}},
		{Iface: std, One: true, Chain: []string{"t.DialContext"}, Sites: []string{"client.go:7:4"}},
	} {
		for range 2 {
			w.B.Start(1<<10, 1<<10)
			if got := w.Dispatch(d); len(got) != 0 {
				t.Errorf("%s: %d paths, want none followed", d.Iface, len(got))
			}
		}
	}
	want := map[string]string{
		"hook.go:9:2":   "hook.Handler.Func " + WhyTypes + " [func(int) func(string)]",
		"router.go:5:3": "router.Services.Profile " + WhyPlaces + " []",
	}
	if len(w.B.Unfollowed) != len(want) {
		t.Errorf("Unfollowed = %v, want %v", w.B.Unfollowed, want)
	}
	for site, why := range want {
		u := w.B.Unfollowed[site]
		if got := fmt.Sprintf("%s %v", u.Slot, u.Types); got != why {
			t.Errorf("Unfollowed[%s] = %q, want %q", site, got, why)
		}
	}
}

// TestWalkRecordsCut: a call that a bound of the walk cuts after some of
// what it may run is recorded at its site as partial, with how many there
// are and how many were followed, instead of the first ones' findings
// reading as all there is: a slot holding more functions than MaxTargets
// (a settings handler's table of actions), and an interface call where
// the pending call's work bound runs out. Only the first call the work
// bound cuts is named (those after it go unvisited with it); a call
// within the bounds is not recorded.
func TestWalkRecordsCut(t *testing.T) {
	const slot, small, store, other = "ex.com/settings.Handler.actions", "ex.com/settings.Handler.hooks", "ex.com/api.Store", "ex.com/api.Cache"
	sleep := wf{op: "time.Sleep"}
	var convs []Conv[wf]
	for i := range 5 {
		convs = append(convs, bound(fmt.Sprintf("settings.act%d", i), slot, "settings.New", "", sleep))
	}
	convs = append(convs, bound("settings.hook", small, "settings.New", "", sleep))
	for i := range 4 {
		convs = append(convs, bound(fmt.Sprintf("*db.S%d", i), store, "main", "Get", sleep))
		convs = append(convs, bound(fmt.Sprintf("*db.C%d", i), other, "main", "Get", sleep))
	}
	w := testWalk(convs)
	if got := w.Dispatch(call(slot, "", "h.actions[k]")); len(got) != w.MaxTargets {
		t.Errorf("slot: %d paths, want the first %d", len(got), w.MaxTargets)
	}
	if got := w.Dispatch(call(small, "", "h.hooks[k]")); len(got) != 1 {
		t.Errorf("small slot: %d paths, want 1", len(got))
	}
	// Three bindings of work: the store's fourth is cut, and the cache's
	// call after it on the same pending call is not visited at all.
	w.B.Start(3, 1<<10)
	sites := func(d DynCall[wf], site string) DynCall[wf] { d.Sites[len(d.Sites)-1] = site; return d }
	if got := w.Dispatch(sites(call(store, "Get", "s.Get"), "s.go:1")); len(got) != 3 {
		t.Errorf("store: %d paths, want 3 before the work bound", len(got))
	}
	if got := w.Dispatch(sites(call(other, "Get", "c.Get"), "c.go:1")); len(got) != 0 {
		t.Errorf("cache: %d paths after the work bound ran out, want none", len(got))
	}
	want := map[string]string{
		"h.go:1": "settings.Handler.actions holds 5 functions and syncio follows at most 2 per call",
		"s.go:1": "api.Store.Get is bound to 4 methods and syncio followed 3 before its work bound for the root's call ran out",
	}
	check := func() {
		t.Helper()
		if len(w.B.Unfollowed) != len(want) {
			t.Errorf("Unfollowed = %v, want %v", w.B.Unfollowed, want)
		}
		for site, slot := range want {
			if u := w.B.Unfollowed[site]; u.Slot != slot || !u.Partial {
				t.Errorf("Unfollowed[%s] = %+v, want %q, partial", site, u, slot)
			}
		}
	}
	check()
	// A fresh pending call's work bound runs out at the cache's call.
	w.B.Start(1, 1<<10)
	w.Dispatch(sites(call(other, "Get", "c.Get"), "c.go:1"))
	want["c.go:1"] = "api.Cache.Get is bound to 4 methods and syncio followed 1 before its work bound for the root's call ran out"
	check()
}
