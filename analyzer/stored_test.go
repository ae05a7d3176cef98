package analyzer

import (
	"testing"
)

// TestStoredFuncs: functions a package stores into another package's
// slots (a struct field through two registration methods, a slice field
// through a variadic one, a map field, a package variable, a field of one
// value filled through a constructor at one place) are followed from the
// root's call through the slot, and reported once, by the package that
// sees both sides, with "via the func stored in" in the chain. Silent: a
// func stored into a field that no request path calls (OnClose); a field
// of one value filled at two places, one blocking (Services.Profile of
// Fast and Slow: which one a workflow holds is not known); a generic
// type's field (hook.Handler[T].Func), whose Terminate instantiation holds
// a handler that must never reach the request hook's chain.
func TestStoredFuncs(t *testing.T) {
	t.Parallel()
	crossReports(t, "stored", "stored/hook", "stored/router", "stored/app", "stored/cmd")
}

// TestGenericSlots: a func stored into a field of a generic type is
// followed from a call through the same field, keyed by the generic
// origin (router.Route[T].Action): a handler given to Group[T].GET by
// app, called by the literal in Router[T].BuildMux after a type switch
// over the group's children, and by a literal handing v.Action to a
// generic hook that chains its one-off handlers through closures the
// event runs (pocketbase's Trigger). A call through an instance's field
// (Task[string].Do) follows only the functions of that type stored
// there; a call in generic code through a field the program fills with
// functions of two types (Queue[T].Handler's t.Do) follows none.
func TestGenericSlots(t *testing.T) {
	t.Parallel()
	crossReports(t, "genslots", "genslots/router", "genslots/queue", "genslots/app", "genslots/cmd")
}

// TestStdCallbacks: the standard library's callbacks (regexp's *Func
// methods, strings.Map, sort.Slice) run their function before they
// return, so it is on the caller's request path; a literal only stored is
// not.
func TestStdCallbacks(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "stdcallbacks")
}
