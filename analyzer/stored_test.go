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

// TestStdCallbacks: the standard library's callbacks (regexp's *Func
// methods, strings.Map, sort.Slice) run their function before they
// return, so it is on the caller's request path; a literal only stored is
// not.
func TestStdCallbacks(t *testing.T) {
	t.Parallel()
	cases.Run(t, Analyzer, "stdcallbacks")
}
