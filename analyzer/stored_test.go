package analyzer

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestStoredFuncs: functions a package stores into another package's
// slots (a struct field through two registration methods, a slice field
// through a variadic one, a map field, a package variable, a hook's
// Handler.Func run by a generic Trigger chain) are followed from the
// root's call through the slot, and reported once, by the package that
// sees both sides, with "via the func stored in" in the chain. A func
// stored into a field that no request path calls (OnClose) is silent.
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
	analysistest.Run(t, analysistest.TestData(), Analyzer, "stdcallbacks")
}
