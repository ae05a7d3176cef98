package analyzer

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
)

// TestDeterministicOutput runs the analyzer several times on one load of
// a program with two mains, test variants of its packages, and one
// interface binding seen from four wiring packages, and compares the
// outputs: every package's diagnostics in the order reported (what -json
// prints), and the set of distinct lines the standalone checker prints.
// Package facts reach the dispatch join in map order, so without a fixed
// order the binding that labels the finding ("bound to … in …") and the
// order of reports changed from run to run.
func TestDeterministicOutput(t *testing.T) {
	t.Parallel()
	pkgs := cases.Packages(t, "determinism/...")
	variants := 0
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.ID, p.Errors)
		}
		if strings.Contains(p.ID, "[") {
			variants++
		}
	}
	if variants == 0 {
		t.Fatal("no test variants loaded; the test would not cover them")
	}

	const runs = 8
	var first, firstLines string
	for i := range runs {
		g, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var ordered strings.Builder
		lines := map[string]bool{}
		for _, act := range g.Roots {
			if act.Err != nil {
				t.Fatalf("%s: %v", act.Package.ID, act.Err)
			}
			fset := act.Package.Fset
			for _, d := range act.Diagnostics {
				p := fset.Position(d.Pos)
				p.Filename = filepath.Base(p.Filename)
				line := p.String() + ": " + d.Message
				for _, r := range d.Related {
					rp := fset.Position(r.Pos)
					rp.Filename = filepath.Base(rp.Filename)
					line += "\n\t" + rp.String() + ": " + r.Message
				}
				ordered.WriteString(act.Package.ID + " " + line + "\n")
				lines[line] = true
			}
		}
		sorted := make([]string, 0, len(lines))
		for l := range lines {
			sorted = append(sorted, l)
		}
		sort.Strings(sorted)
		text := strings.Join(sorted, "\n")
		if i == 0 {
			first, firstLines = ordered.String(), text
			// The finding is there at all: the handler's call, bound
			// to the blocking implementation.
			if !strings.Contains(text, "api.go:14:") || !strings.Contains(text, "bound to *store.SQL") {
				t.Fatalf("no dispatch finding at the handler's call:\n%s", text)
			}
			continue
		}
		if text != firstLines {
			t.Fatalf("run %d printed other lines than run 1:\n--- run 1\n%s\n--- run %d\n%s", i+1, firstLines, i+1, text)
		}
		if ordered.String() != first {
			t.Fatalf("run %d reported in another order or form than run 1:\n--- run 1\n%s\n--- run %d\n%s", i+1, first, i+1, ordered.String())
		}
	}
}
