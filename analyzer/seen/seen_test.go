package seen

import (
	"slices"
	"strings"
	"testing"
)

// TestMergeAndLine: a package and its test variant merge into one, roots
// and registrations once each; blind packages are named; the line counts
// by framework and how, most first, and names the first unresolved
// registrations by file:line.
func TestMergeAndLine(t *testing.T) {
	a := &Package{Path: "ex/api",
		Roots: []Root{
			{Name: "api.List", Pos: "api/api.go:10:6", Framework: "gin", How: HowSignature},
			{Name: "func literal", Pos: "api/api.go:30:9", Framework: "gin", How: HowSignature},
			{Name: "api.Job", Pos: "api/api.go:50:6", Framework: "custom", How: HowDirective},
		},
		Registrations: []Registration{
			{Pos: "api/api.go:5:2", Call: "gin.(*RouterGroup).GET", Framework: "gin", Handlers: []string{"api.List"}},
			{Pos: "api/api.go:6:2", Call: "gin.(*RouterGroup).GET", Framework: "gin", Unresolved: []string{"h: parameter h"}},
		},
	}
	variant := &Package{Path: "ex/api", Roots: a.Roots[:1], Registrations: a.Registrations[1:]}
	blind := &Package{Path: "ex/web",
		Registrations: []Registration{
			{Pos: "web/web.go:9:2", Call: "net/http.HandleFunc", Framework: "net/http", Unresolved: []string{"d.f: field f"}},
			{Pos: "web/web.go:12:2", Call: "net/http.HandleFunc", Framework: "net/http", Unresolved: []string{"d.g: field g"}},
			{Pos: "web/web.go:10:2", Call: "net/http.HandleFunc", Framework: "net/http", Unresolved: []string{"d.h: field h"}},
			{Pos: "web/web.go:11:2", Call: "net/http.HandleFunc", Framework: "net/http", Unresolved: []string{"d.i: field i"}},
		},
	}
	rep := Merge([]*Package{blind, variant, a, nil})
	if len(rep.Roots) != 3 || len(rep.Registrations) != 6 || len(rep.Unresolved) != 5 {
		t.Fatalf("merged %d roots, %d registrations, %d unresolved; want 3, 6, 5", len(rep.Roots), len(rep.Registrations), len(rep.Unresolved))
	}
	if len(rep.Blind) != 1 || rep.Blind[0].Path != "ex/web" || rep.Blind[0].First != "web/web.go:9:2" || rep.Blind[0].Registrations != 4 {
		t.Errorf("blind = %+v", rep.Blind)
	}
	want := "roots: 3 request handlers (gin 2, custom 1; by signature 2, directive 1); 6 registration calls, " +
		"5 with a handler syncio could not resolve to a function (api/api.go:6, web/web.go:9, web/web.go:10, …)"
	if got := rep.Line(nil); got != want {
		t.Errorf("line:\n%s\nwant:\n%s", got, want)
	}
}

// TestLineSaysZero: no root is said in words, never as a bare 0 that
// reads as a clean run.
func TestLineSaysZero(t *testing.T) {
	got := Merge(nil).Line(nil)
	if !strings.HasPrefix(got, "roots: 0 request roots found: no handler was analysed, so the absence of findings says nothing") {
		t.Errorf("line = %q", got)
	}
	if !strings.HasSuffix(got, "; 0 registration calls") {
		t.Errorf("line = %q", got)
	}
}

// TestLineCountsWrappers: middleware and adapters are roots, and the line
// counts them apart from the handlers, so that a reader who counts routes
// can compare, and still says how many roots were analysed.
func TestLineCountsWrappers(t *testing.T) {
	rep := Merge([]*Package{{Path: "p", Roots: []Root{
		{Name: "func literal", Pos: "a.go:1:1", Framework: "net/http", How: HowRegistration},
		{Name: "func literal", Pos: "a.go:5:1", Framework: "net/http", How: HowRegistration, Wraps: true},
		{Name: "func literal", Pos: "a.go:9:1", Framework: "net/http", How: HowSignature, Wraps: true},
	}}})
	const want = "roots: 1 request handler (net/http 1; by registration 1), plus 2 middleware or adapters that call a handler they are given: 3 request roots analysed;"
	if got := rep.Line(nil); !strings.HasPrefix(got, want) {
		t.Errorf("line:\n%s\nwant prefix:\n%s", got, want)
	}
}

// TestKinds: a root that may be a dispatch branch is counted apart only
// when the run's packages together call it on the spot and never use it
// as a value, and no registration names it; the first call is where it
// was called from. Everything else stays a handler.
func TestKinds(t *testing.T) {
	a := &Package{Path: "a", Roots: []Root{
		{Name: "a.branch", Pos: "a/a.go:10:6", Framework: "net/http", How: HowSignature, Key: "a.branch", Branch: true},
		{Name: "a.stored", Pos: "a/a.go:20:6", Framework: "net/http", How: HowSignature, Key: "a.stored", Branch: true},
		{Name: "a.Registered", Pos: "a/a.go:30:6", Framework: "net/http", How: HowSignature, Key: "a.Registered", Branch: true},
		{Name: "a.unused", Pos: "a/a.go:40:6", Framework: "net/http", How: HowSignature, Key: "a.unused", Branch: true},
		{Name: "a.directive", Pos: "a/a.go:50:6", Framework: "custom", How: HowDirective, Key: "a.directive"},
		{Name: "a.mw", Pos: "a/a.go:60:6", Framework: "net/http", How: HowSignature, Key: "a.mw", Branch: true, Wraps: true},
	}, Refs: []Ref{
		{Key: "a.branch", Calls: 1, At: "a/a.go:12:3"},
		{Key: "a.stored", Calls: 2, At: "a/a.go:22:3"},
		{Key: "a.Registered", Calls: 1, At: "a/a.go:32:3"},
		{Key: "a.directive", Calls: 1, At: "a/a.go:52:3"},
		{Key: "a.mw", Calls: 1, At: "a/a.go:62:3"},
	}}
	b := &Package{Path: "b",
		Refs: []Ref{
			{Key: "a.branch", Calls: 1, At: "a/a.go:11:3"}, // an earlier call, as seen by a test variant
			{Key: "a.stored", Values: 1},
		},
		Registrations: []Registration{{Pos: "b/b.go:5:2", Call: "net/http.HandleFunc", Framework: "net/http", Handlers: []string{"a.Registered"}}},
	}
	rep := Merge([]*Package{a, b})
	want := map[string][2]string{
		"a.branch":     {KindCalled, "a/a.go:11:3"},
		"a.stored":     {KindHandler, ""},
		"a.Registered": {KindHandler, ""},
		"a.unused":     {KindHandler, ""},
		"a.directive":  {KindHandler, ""},
		"a.mw":         {KindMiddleware, ""},
	}
	for _, r := range rep.Roots {
		if w := want[r.Name]; r.Kind != w[0] || r.CalledAt != w[1] {
			t.Errorf("%s: kind %q at %q, want %q at %q", r.Name, r.Kind, r.CalledAt, w[0], w[1])
		}
	}
	const line = "roots: 4 request handlers (net/http 3, custom 1; by signature 3, directive 1), plus 1 middleware or adapter that calls a handler it is given " +
		"and 1 function of a handler's shape that the program only calls, never registers (dispatch branches): 6 request roots analysed; 1 registration call, every handler resolved"
	if got := rep.Line(nil); got != line {
		t.Errorf("line:\n%s\nwant:\n%s", got, line)
	}
}

// TestClearReached: a finding inside a root's body (reported there by
// dispatch from another package) clears the root's Unfollowed; one outside
// it, or in another file, does not.
func TestClearReached(t *testing.T) {
	rep := Report{Roots: []Root{
		{Name: "a", Pos: "x.go:10:6", End: "x.go:20:2", Unfollowed: "y.go:3:4"},
		{Name: "b", Pos: "x.go:30:6", End: "x.go:40:2", Unfollowed: "y.go:5:4"},
		{Name: "c", Pos: "z.go:1:6", End: "z.go:9:2", Unfollowed: "y.go:7:4"},
	}}
	rep.ClearReached([]string{"x.go:15:3", "x.go:41:1", "w.go:5:1"})
	got := []string{rep.Roots[0].Unfollowed, rep.Roots[1].Unfollowed, rep.Roots[2].Unfollowed}
	want := []string{"", "y.go:5:4", "y.go:7:4"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("root %s: unfollowed %q, want %q", rep.Roots[i].Name, got[i], want[i])
		}
	}
	if line := rep.Line(nil); !strings.Contains(line, "2 of the roots reach no operation but call a func value") {
		t.Errorf("line: %s", line)
	}
}

// TestLineNamesUnfollowedCalls: calls through a func field that no
// package followed are merged once each, in position order, and the line
// names how many and the first, even when every root reached operations
// and every registration resolved: "every handler resolved" alone would
// read as a run that saw everything.
func TestLineNamesUnfollowedCalls(t *testing.T) {
	u1 := Unfollowed{Pos: "core/hook.go:44:39", Slot: "hook.Handler[T].Func holds functions of several types",
		RootPatterns: []string{"func(*ex/core.TermEvent)", "func(*ex/core.Event)"}}
	u2 := Unfollowed{Pos: "core/app.go:9:2", Slot: "core.Services.Profile is filled at several places"}
	// The package below the call sees one type stored there; the one
	// above sees both: the merge keeps both, sorted.
	low := &Package{Path: "ex/core", Roots: []Root{{Name: "core.Serve", Pos: "core/serve.go:3:6", Framework: "net/http", How: HowSignature}},
		Unfollowed: []Unfollowed{{Pos: u1.Pos, Slot: u1.Slot, RootPatterns: u1.RootPatterns[:1]}}}
	high := &Package{Path: "ex/cmd", Unfollowed: []Unfollowed{u1, u2},
		Registrations: []Registration{{Pos: "cmd/main.go:5:2", Call: "net/http.HandleFunc", Framework: "net/http", Handlers: []string{"core.Serve"}}}}
	rep := Merge([]*Package{high, low})
	if len(rep.Unfollowed) != 2 || rep.Unfollowed[0].Pos != u2.Pos || rep.Unfollowed[1].Pos != u1.Pos {
		t.Fatalf("Unfollowed = %+v, want %+v then %+v", rep.Unfollowed, u2, u1)
	}
	if got := strings.Join(rep.Unfollowed[1].RootPatterns, " "); got != "func(*ex/core.Event) func(*ex/core.TermEvent)" {
		t.Errorf("root patterns = %s, want both packages' types, sorted", got)
	}
	want := "roots: 1 request handler (net/http 1; by signature 1); 2 calls on request paths through a func field that syncio followed to none of the functions stored there " +
		"(first at core/app.go:9, where core.Services.Profile is filled at several places), so what runs behind them is unseen: mark the functions stored there //syncio:handler, or pass -roots 'func(T)' with their parameter type (-roots-report lists each field's types); 1 registration call, every handler resolved"
	if got := rep.Line(nil); got != want {
		t.Errorf("line:\n%s\nwant:\n%s", got, want)
	}
	if got := Merge([]*Package{low}).Line(nil); !strings.Contains(got, "; 1 call on request paths through a func field that syncio followed to none of the functions stored there (first at core/hook.go:44, where hook.Handler[T].Func holds functions of several types), so what runs behind it is unseen") {
		t.Errorf("one call: %s", got)
	}
}

// TestLinePartialCalls: a call a bound cut after some of what it may run
// is counted and named apart from the calls followed to none, which keep
// their own count and advice: "followed to none" would be false of it, and
// the -roots advice does nothing for a bound. Of two packages' entries
// at one call the merge keeps one, the same on every run (the first by
// Slot, here the lower count), and it stays partial.
func TestLinePartialCalls(t *testing.T) {
	none := Unfollowed{Pos: "core/app.go:9:2", Slot: "core.Services.Profile is filled at several places"}
	cut := Unfollowed{Pos: "settings/settings.go:40:3", Slot: "settings.actions holds 300 functions and syncio follows at most 256 per call", Partial: true}
	low := &Package{Path: "ex/settings", Roots: []Root{{Name: "settings.Serve", Pos: "settings/serve.go:3:6", Framework: "net/http", How: HowSignature}},
		Unfollowed: []Unfollowed{{Pos: cut.Pos, Slot: "settings.actions holds 290 functions and syncio follows at most 256 per call", Partial: true}}}
	high := &Package{Path: "ex/cmd", Unfollowed: []Unfollowed{none, cut}}
	rep := Merge([]*Package{high, low})
	if len(rep.Unfollowed) != 2 || rep.Unfollowed[0].Partial || !rep.Unfollowed[1].Partial {
		t.Fatalf("Unfollowed = %+v, want %s followed to none, then %s partial", rep.Unfollowed, none.Pos, cut.Pos)
	}
	want := "roots: 1 request handler (net/http 1; by signature 1); 1 call on request paths through a func field that syncio followed to none of the functions stored there " +
		"(first at core/app.go:9, where core.Services.Profile is filled at several places), so what runs behind it is unseen: mark the functions stored there //syncio:handler, or pass -roots 'func(T)' with their parameter type (-roots-report lists each field's types); " +
		"1 call on request paths that syncio followed only in part, cut by a bound (first at settings/settings.go:40, where settings.actions holds 290 functions and syncio follows at most 256 per call), so what runs behind the rest is unseen (-roots-report lists it under unfollowed_calls, \"partial\": true); 0 registration calls"
	if got := rep.Line(nil); got != want {
		t.Errorf("line:\n%s\nwant:\n%s", got, want)
	}
	if got := Merge([]*Package{{Path: "a", Roots: low.Roots, Unfollowed: []Unfollowed{cut, {Pos: "b.go:1:1", Slot: "b.F holds 260 functions and syncio follows at most 256 per call", Partial: true}}}}).Line(nil); !strings.Contains(got, "; 2 calls on request paths that syncio followed only in part, cut by a bound (first at b.go:1, ") ||
		!strings.Contains(got, "(-roots-report lists each under unfollowed_calls") || strings.Contains(got, "followed to none") {
		t.Errorf("two partial calls: %s", got)
	}
}

// TestMergeGinUndecided: a call held by one package and decided by
// another is no longer undecided; one held and decided by none is, once.
func TestMergeGinUndecided(t *testing.T) {
	rep := Merge([]*Package{
		{Path: "a", GinHeld: []string{"a.go:3:2|SIO002|x", "a.go:9:2|SIO002|y"}},
		{Path: "a", GinHeld: []string{"a.go:9:2|SIO002|y"}}, // its test variant
		{Path: "router", GinDecided: []string{"a.go:3:2|SIO002|x"}},
	})
	if want := []string{"a.go:9:2"}; !slices.Equal(rep.GinUndecided, want) {
		t.Errorf("GinUndecided = %v, want %v", rep.GinUndecided, want)
	}
}
