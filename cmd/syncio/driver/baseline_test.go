package driver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/syncio/syncio/cmd/syncio/driver"
)

// TestBaseline runs the baseline flow on a module of its own: the first
// run writes the baseline and passes; moving the flagged code does not
// revive its finding; a second flagged call (another function, and a copy
// in the same function) fails the run, and only the new findings are
// printed and marked "new" in SARIF.
func TestBaseline(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runIn := func(args ...string) result {
		t.Helper()
		var out, errb bytes.Buffer
		code := driver.Run(driver.Config{Analyzer: testAnalyzer, Rules: testRules, Dir: dir, Stdout: &out, Stderr: &errb}, args)
		return result{code, out.String(), errb.String()}
	}
	findingLines := func(stderr string) []string {
		var out []string
		for _, l := range strings.Split(stderr, "\n") {
			if strings.HasSuffix(l, "(SIO001)") {
				out = append(out, l)
			}
		}
		return out
	}
	write("go.mod", "module example.com/base\n\ngo 1.26\n")
	write("h/h.go", "package h\n\nfunc block() {}\n\nfunc Handler() {\n\tblock()\n}\n")

	r := runIn("-baseline", "syncio-baseline.json", "./...")
	if r.code != driver.ExitClean || !strings.Contains(r.stderr, "wrote the baseline syncio-baseline.json with 1 findings") {
		t.Fatalf("first run: exit %d, want 0 and the baseline written:\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "syncio-baseline.json")); err != nil {
		t.Fatal(err)
	}

	// Moved down and into another file of the package: not new.
	write("h/h.go", "package h\n\n// Lines added above.\n\nvar x = 1\n")
	write("h/other.go", "package h\n\nfunc block() {}\n\n// Handler moved here.\nfunc Handler() {\n\t_ = x\n\tblock()\n}\n")
	r = runIn("-baseline", "syncio-baseline.json", "./...")
	if r.code != driver.ExitClean || len(findingLines(r.stderr)) != 0 {
		t.Fatalf("moved code: exit %d with %d findings shown, want 0 and none:\n%s", r.code, len(findingLines(r.stderr)), r.stderr)
	}
	if !strings.Contains(r.stderr, "0 new findings; 1 more are in the baseline") {
		t.Errorf("moved code: no baseline summary:\n%s", r.stderr)
	}

	// One new call in a new function, and a copy in the old one.
	write("h/other.go", "package h\n\nfunc block() {}\n\nfunc Handler() {\n\t_ = x\n\tblock()\n\tblock()\n}\n\nfunc Audit() {\n\tblock()\n}\n")
	sarifPath := filepath.Join(t.TempDir(), "out.sarif")
	r = runIn("-baseline", "syncio-baseline.json", "-sarif", sarifPath, "./...")
	if r.code != driver.ExitFindings {
		t.Fatalf("new findings: exit %d, want %d:\n%s", r.code, driver.ExitFindings, r.stderr)
	}
	got := findingLines(r.stderr)
	want := []string{
		"h/other.go:8:2: Handler calls block, which blocks without the request context (SIO001)",
		"h/other.go:12:2: Handler calls block, which blocks without the request context (SIO001)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("new findings shown:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.stderr, "2 new findings; 1 more are in the baseline") {
		t.Errorf("no baseline summary:\n%s", r.stderr)
	}
	rep, err := sarif.Open(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	states := map[int]string{}
	for _, res := range rep.Runs[0].Results {
		if res.BaselineState == nil {
			t.Fatalf("SARIF result without baselineState: %+v", res)
		}
		states[*res.Locations[0].PhysicalLocation.Region.StartLine] = *res.BaselineState
	}
	if want := map[int]string{7: "unchanged", 8: "new", 12: "new"}; len(states) != 3 || states[7] != want[7] || states[8] != want[8] || states[12] != want[12] {
		t.Errorf("SARIF baselineState by line = %v, want %v", states, want)
	}
	if r := runIn("-baseline", "syncio-baseline.json", "-exit-zero", "./..."); r.code != driver.ExitClean {
		t.Errorf("-exit-zero with new findings: exit %d, want 0", r.code)
	}

	// Fixed: the baselined finding is gone, and the run says so.
	write("h/other.go", "package h\n\nfunc Handler() { _ = x }\n")
	r = runIn("-baseline", "syncio-baseline.json", "./...")
	if r.code != driver.ExitClean || !strings.Contains(r.stderr, "1 baselined findings were not seen") {
		t.Errorf("fixed finding: exit %d, want 0 and a note:\n%s", r.code, r.stderr)
	}
	// -baseline-write rewrites it; a malformed file is a usage error.
	if r := runIn("-baseline", "syncio-baseline.json", "-baseline-write", "./..."); r.code != driver.ExitClean || !strings.Contains(r.stderr, "with 0 findings") {
		t.Errorf("-baseline-write: exit %d:\n%s", r.code, r.stderr)
	}
	write("bad.json", "{")
	if r := runIn("-baseline", "bad.json", "./..."); r.code != driver.ExitUsage || !strings.Contains(r.stderr, "-baseline bad.json: not a syncio baseline") {
		t.Errorf("malformed baseline: exit %d, want %d:\n%s", r.code, driver.ExitUsage, r.stderr)
	}
	if r := runIn("-baseline-write", "./..."); r.code != driver.ExitUsage {
		t.Errorf("-baseline-write without -baseline: exit %d, want %d", r.code, driver.ExitUsage)
	}
}
