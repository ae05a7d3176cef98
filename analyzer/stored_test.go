package analyzer

import (
	"sort"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/seen"
)

// TestStoredFuncs: functions a package stores into another package's
// slots that a request root there calls itself (a struct field through
// two registration methods, a slice field through a variadic one, a map
// field, a package variable, a field read from an element and handed to
// a hook's Trigger) are request roots of their own, reported inside
// themselves in app (slotroots.go), and no longer at the root's call
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
				got = append(got, path+": "+r.Name+" "+r.Framework+" "+shortSite(r.Pos))
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
