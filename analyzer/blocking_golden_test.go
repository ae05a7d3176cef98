package analyzer

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var updateBlockingGolden = flag.Bool("update-blocking-golden", false,
	"rewrite testdata/blocking.golden from the built-in SIO001 table")

// blockingGolden is the built-in SIO001 table as it stood when it was Go
// code (table.go, libs.go, libnames.go), before it moved to the data file
// internal/knowledge/blocking.txt: one line per key, every Replacement
// field. TestBlockingGolden holds the data table to it, so the move changed
// no entry; a deliberate change to the table rewrites it with
// -update-blocking-golden and shows in the diff.
const blockingGolden = "testdata/blocking.golden"

// dumpBlocking renders a table one sorted line per key, tab-separated.
func dumpBlocking(t map[string]Replacement) string {
	lines := make([]string, 0, len(t))
	for k, r := range t {
		lines = append(lines, strings.Join([]string{k, "use=" + r.Use, "verb=" + r.Verb, "method=" + r.Method, "extra=" + r.ExtraArgs}, "\t"))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

func TestBlockingGolden(t *testing.T) {
	t.Parallel()
	got := dumpBlocking(DefaultConfig().Blocking)
	if *updateBlockingGolden {
		if err := os.WriteFile(filepath.FromSlash(blockingGolden), []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(filepath.FromSlash(blockingGolden))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		gs, ws := map[string]bool{}, map[string]bool{}
		for _, l := range g {
			gs[l] = true
		}
		for _, l := range w {
			ws[l] = true
		}
		n := 0
		for _, l := range w {
			if !gs[l] && n < 10 {
				t.Errorf("lost:  %s", l)
				n++
			}
		}
		for _, l := range g {
			if !ws[l] && n < 20 {
				t.Errorf("added: %s", l)
				n++
			}
		}
		t.Fatalf("the SIO001 table differs from %s (%d lines now, %d there)", blockingGolden, len(g)-1, len(w)-1)
	}
}
