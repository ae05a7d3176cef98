package analyzer

import (
	"slices"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/seen"
)

// TestGinSettingProgramWide: whether passing c is a finding is decided by
// the package that builds the engine or sets ContextWithFallback (above
// or below the handlers), or by main, and reported at the call in the
// handlers' package; what nothing analysed decides is held, never
// reported, and counted for the driver.
func TestGinSettingProgramWide(t *testing.T) {
	t.Parallel()
	pkgs := []string{"ginwide/store", "ginwide/routed", "ginwide/router", "ginwide/plain", "ginwide/plainrouter",
		"ginwide/viamain", "ginwide/cmd", "ginwide/unseen", "ginwide/engine", "ginwide/selfset"}
	crossReports(t, "ginwide", pkgs...)

	held := map[string][]string{}
	decided := map[string]bool{}
	for _, res := range cases.Run(quiet{T: t}, Analyzer, pkgs...) {
		p, _ := res.Result.(*seen.Package)
		if p == nil {
			t.Fatalf("%s: no seen.Package", res.Pkg.Path())
		}
		held[res.Pkg.Path()] = p.GinHeld
		for _, k := range p.GinDecided {
			decided[k] = true
		}
	}
	var never []string
	for pkg, keys := range held {
		for _, k := range keys {
			if !decided[k] {
				never = append(never, pkg)
			}
		}
	}
	slices.Sort(never)
	if !slices.Equal(never, []string{"ginwide/unseen"}) {
		t.Errorf("held and never decided: %v, want only ginwide/unseen's", never)
	}
	if len(held["ginwide/selfset"]) > 0 || len(held["ginwide/router"]) > 0 {
		t.Errorf("a package that decides held %v / %v", held["ginwide/selfset"], held["ginwide/router"])
	}
	if k := held["ginwide/unseen"]; len(k) != 1 || !strings.Contains(k[0], "store.Find is given c") {
		t.Errorf("unseen held %q, want its one store.Find call", k)
	}
}

// TestGinSettingExplicit: -gin-context-fallback=false reports c where the
// handlers' package cannot see the engine, at once; =true drops it even
// where a package builds an engine without the setting.
func TestGinSettingExplicit(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"false", "true"} {
		a := New(DefaultConfig())
		if err := a.Flags.Set("gin-context-fallback", v); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, res := range cases.Run(quiet{T: t}, a, "ginwide/unseen", "ginwide/plain", "ginwide/plainrouter") {
			for _, d := range res.Diagnostics {
				if strings.Contains(d.Message, "is given c") {
					n++
				}
			}
		}
		if want := map[string]int{"false": 3, "true": 0}[v]; n != want {
			t.Errorf("-gin-context-fallback=%s: %d findings of c, want %d", v, n, want)
		}
	}
}
