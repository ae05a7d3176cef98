package analyzer

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/seen"
)

// TestStoredFuncs: functions a package stores into another package's
// slots that a request root there calls itself (a struct field through
// two registration methods, a slice field through a variadic one, a map
// field, a package variable, a field read from an element and handed to
// a hook's Trigger) are request roots of their own, reported inside
// themselves in app (join.FindSlotRoots), and no longer at the root's call
// through the slot. A field of one value filled through a constructor at
// one place (Notifier.Send) is still followed from the root's call
// through the slot, with "via the func stored in" in the chain. Silent:
// a func stored into a field that no request path calls (OnClose); a
// field of one value filled at two places, one blocking
// (Services.Profile of Fast and Slow: which one a workflow holds is not
// known); a generic type's field (hook.Handler[T].Func), whose Terminate
// instantiation holds a handler that must never reach the request hook's
// chain.
func TestStoredFuncs(t *testing.T) {
	t.Parallel()
	crossReports(t, "stored", "stored/hook", "stored/router", "stored/app", "stored/cmd")
}

// TestGenericSlots: a func stored into a field of a generic type is
// keyed by the generic origin (router.Route[T].Action): a handler given
// to Group[T].GET by app, which the literal in Router[T].BuildMux calls
// after a type switch over the group's children, and a literal handing
// v.Action to a generic hook that chains its one-off handlers through
// closures the event runs (pocketbase's Trigger), is a root of its own,
// reported inside itself; router's own route, stored in the package of
// the roots, is followed from their calls through the slot. A call
// through an instance's field (Task[string].Do) follows only the
// functions of that type stored there; a call in generic code through a
// field the program fills with functions of two types
// (Queue[T].Handler's t.Do) follows none.
func TestGenericSlots(t *testing.T) {
	t.Parallel()
	crossReports(t, "genslots", "genslots/router", "genslots/queue", "genslots/handlers", "genslots/app", "genslots/cmd")
}

// TestStdCallbacks: the standard library's callbacks (regexp's *Func
// methods, strings.Map, sort.Slice) run their function before they
// return, so it is on the caller's request path; a literal only stored is
// not.
func TestStdCallbacks(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "stdcallbacks")
}

// TestSlotRoots: app's handlers stored into router.Route[T].Action,
// which router's request roots call, are roots of their own in the roots
// report ("stored"), the function, the literal and another package's
// function (a root at the store); router's own route,
// stored in the roots' package, is not (followed through the slot).
func TestSlotRoots(t *testing.T) {
	t.Parallel()
	pkgs := seenPackages(t, cases.Run(quiet{T: t}, Analyzer, "genslots/router", "genslots/queue", "genslots/handlers", "genslots/app"))
	var got []string
	for _, path := range []string{"genslots/router", "genslots/app"} {
		for _, r := range pkgs[path].Roots {
			if r.How == seen.HowStored {
				got = append(got, path+": "+r.Name+" "+r.Framework+" "+paths.ShortSite(r.Pos))
			}
		}
	}
	sort.Strings(got)
	want := []string{
		"genslots/app: app.settingsSet net/http app.go:18:6",
		"genslots/app: func literal net/http app.go:25:23",
		"genslots/app: handlers.Export net/http app.go:24:23", // another package's, a root at the store
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("stored roots:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestUnfollowedCalls: a call on a request path through a func field that
// the join followed to none of the functions stored there is in the roots
// report, with the field and why, once, however many packages join it:
// Queue[T].Handler's t.Do in generic code (functions of two types stored
// in Task[T].Do), the hook chain's call through Handler[T].Func
// (pocketbase's middlewares), and Workflow.Run's w.svc.Profile (a field
// of one value filled at two places). A field of several types names
// the -roots pattern of each, the handlers' among them. Without it the roots line read "every handler
// resolved" and the run looked clean.
func TestUnfollowedCalls(t *testing.T) {
	t.Parallel()
	var pkgs []*seen.Package
	for _, group := range [][]string{
		{"genslots/router", "genslots/queue", "genslots/handlers", "genslots/app", "genslots/cmd"},
		{"stored/hook", "stored/router", "stored/app", "stored/cmd"},
	} {
		for _, p := range seenPackages(t, cases.Run(quiet{T: t}, Analyzer, group...)) {
			pkgs = append(pkgs, p)
		}
	}
	rep := seen.Merge(pkgs)
	var got []string
	for _, u := range rep.Unfollowed {
		got = append(got, paths.ShortSite(u.Pos)+" "+u.Slot+" "+strings.Join(u.RootPatterns, " "))
	}
	want := []string{
		"queue.go:24:8 queue.Task[T].Do holds functions of several types func(int) func(string)",
		"hook.go:44:39 hook.Handler[T].Func holds functions of several types func(*stored/router.Event) func(*stored/router.TermEvent)",
		"router.go:54:41 router.Services.Profile is filled at several places ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("unfollowed calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	line := rep.Line(nil)
	if !strings.Contains(line, "; 3 calls on request paths through a func field that syncio followed to none of the functions stored there (first at ") {
		t.Errorf("roots line does not name the unfollowed calls:\n%s", line)
	}
}

// TestUnfollowedAdviceWorks: the pattern the report names for the
// handlers' type does what the roots line says: with -roots
// 'func(*stored/router.Event)' the hook's literal bound to the request
// hook is a root of its own and its net.LookupHost is reported, while the
// shutdown hook's http.Head (the other type) is not.
func TestUnfollowedAdviceWorks(t *testing.T) {
	t.Parallel()
	cfg := DefaultConfig()
	cfg.Roots = append(cfg.Roots, "func(*stored/router.Event)")
	a := New(cfg)
	var got []string
	for _, res := range cases.Run(quiet{T: t}, a, "stored/hook", "stored/router", "stored/app") {
		for _, d := range res.Diagnostics {
			got = append(got, d.Message)
		}
	}
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "net.LookupHost") {
		t.Errorf("no finding for the request hook's net.LookupHost with the advised -roots pattern:\n%s", all)
	}
	if strings.Contains(all, "http.Head") {
		t.Errorf("the shutdown hook's http.Head is reported, though its type was not named:\n%s", all)
	}
}

// TestPartialCalls: a settings handler's call through a package map that
// two packages fill with 260 actions, more than the join follows per call,
// is reported with the first ones' operations and named in the roots
// report as followed in part, with how many the map holds and how many
// were followed, and in the roots line apart from the calls followed to
// none; before, nothing said the rest were cut. The switch over 23
// actions kept in a local is followed into each (its want line counts
// them; 8 were followed before): it is no cut call.
func TestPartialCalls(t *testing.T) {
	t.Parallel()
	pkgs := seenPackages(t, cases.Run(t, Analyzer, "manyactions/table", "manyactions/first", "manyactions/second", "manyactions/app"))
	var all []*seen.Package
	for _, p := range pkgs {
		all = append(all, p)
	}
	rep := seen.Merge(all)
	var got []string
	for _, u := range rep.Unfollowed {
		got = append(got, fmt.Sprintf("%s %s partial=%t", paths.ShortSite(u.Pos), u.Slot, u.Partial))
	}
	want := []string{"app.go:20:2 table.Actions holds 260 functions and syncio follows at most 256 per call partial=true"}
	if !slices.Equal(got, want) {
		t.Errorf("unfollowed calls:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	line := rep.Line(filepath.Base)
	if !strings.Contains(line, "; 1 call on request paths that syncio followed only in part, cut by a bound (first at app.go:20, where table.Actions holds 260 functions") ||
		strings.Contains(line, "followed to none") {
		t.Errorf("roots line does not name the call followed in part, alone:\n%s", line)
	}
}
