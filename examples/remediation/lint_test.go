package remediation_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/syncio/syncio/analyzer"
)

// variants are the directories an example topic may have. before must be
// flagged; after and wrapped must be clean (wrapped is the fake fix that
// syncio cannot see, so "clean" is the documented limitation).
var variants = map[string]bool{"before": true, "after": false, "wrapped": false}

// markerRE matches the "// syncio: SIO001 [SIO005]" comment that ends a line
// syncio must report. The space after // tells it from a //syncio:ignore
// directive.
var markerRE = regexp.MustCompile(`^//\s+syncio:\s*(.+)$`)

// missedRE matches "// syncio-missed: SIO002": a line syncio should report
// and does not yet. The test checks it stays unreported, so the day the
// analyzer learns it, the test fails and the marker must become a finding's.
var missedRE = regexp.MustCompile(`^//\s+syncio-missed:\s*(.+)$`)

var ruleRE = regexp.MustCompile(`^SIO\d{3}$`)

// example is one before/after/wrapped package directory.
type example struct {
	dir     string // slash path relative to examples/remediation, e.g. "locks/before"
	flagged bool
}

// examples lists every variant directory under the topic directories and
// checks that each topic has a before and an after.
func examples(t *testing.T) []example {
	t.Helper()
	topics, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	for _, topic := range topics {
		// monitoring/ holds the metrics wiring for any service
		// (monitoring/plain), not a before/after pair.
		if !topic.IsDir() || topic.Name() == "testdata" || topic.Name() == "monitoring" {
			continue
		}
		entries, err := os.ReadDir(topic.Name())
		if err != nil {
			t.Fatal(err)
		}
		var have []string
		for _, e := range entries {
			flagged, known := variants[e.Name()]
			if !e.IsDir() || !known {
				t.Errorf("%s/%s: want only before/, after/ and wrapped/ in a topic", topic.Name(), e.Name())
				continue
			}
			have = append(have, e.Name())
			out = append(out, example{dir: topic.Name() + "/" + e.Name(), flagged: flagged})
		}
		if !slices.Contains(have, "before") || !slices.Contains(have, "after") {
			t.Errorf("topic %s has %v; it needs before/ and after/", topic.Name(), have)
		}
	}
	if len(out) == 0 {
		t.Fatal("no examples found")
	}
	return out
}

// markers returns "dir/file.go:line:RULE" for every marker in ex's files,
// and for every syncio-missed marker.
func markers(t *testing.T, ex example) (want, missed map[string]bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(filepath.FromSlash(ex.dir), "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", ex.dir, err)
	}
	out, missed := map[string]bool{}, map[string]bool{}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				into := out
				m := markerRE.FindStringSubmatch(c.Text)
				if m == nil {
					into, m = missed, missedRE.FindStringSubmatch(c.Text)
				}
				if m == nil {
					continue
				}
				for _, rule := range strings.Fields(m[1]) {
					if !ruleRE.MatchString(rule) {
						t.Fatalf("%s: bad marker word %q", fset.Position(c.Pos()), rule)
					}
					into[fmt.Sprintf("%s:%d:%s", filepath.ToSlash(path), fset.Position(c.Pos()).Line, rule)] = true
				}
			}
		}
	}
	return out, missed
}

// TestExamplesAgainstLinter runs syncio (analyzer.Analyzer, default rules)
// over every example in one checker run, as the CLI does, and compares its
// findings with the markers: each before reports exactly its marked lines
// and rules, each after and wrapped reports nothing.
func TestExamplesAgainstLinter(t *testing.T) {
	exs := examples(t)
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	patterns := make([]string, len(exs))
	for i, ex := range exs {
		patterns[i] = "./" + ex.dir
	}
	// Facts are computed on every dependency, so they need syntax too.
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: cwd}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		t.Fatalf("%d package errors", n)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.Analyzer}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}

	got := map[string][]string{} // example dir → "file:line:RULE"
	pages := map[string]int{}    // "RULE URL" → findings: the text output's closing lines
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			rel, err := filepath.Rel(cwd, pos.Filename)
			if err != nil {
				t.Fatal(err)
			}
			rel = filepath.ToSlash(rel)
			if !strings.HasSuffix(d.Message, "("+d.Category+")") {
				t.Errorf("%s: message does not end with its rule %s: %s", pos, d.Category, d.Message)
			}
			pages[d.Category+" "+d.URL]++
			got[filepath.ToSlash(filepath.Dir(rel))] = append(got[filepath.ToSlash(filepath.Dir(rel))],
				fmt.Sprintf("%s:%d:%s", rel, pos.Line, d.Category))
			t.Logf("%s:%d: %s", rel, pos.Line, d.Message)
		}
	}

	checkClosingLines(t, pages)

	for _, ex := range exs {
		want, missed := markers(t, ex)
		if ex.flagged && len(want)+len(missed) == 0 {
			t.Errorf("%s: a before package needs at least one // syncio: SIO00N (or // syncio-missed: SIO00N) marker", ex.dir)
		}
		if !ex.flagged && len(want)+len(missed) > 0 {
			t.Errorf("%s: must be clean, but has markers %v %v", ex.dir, keys(want), keys(missed))
		}
		have := map[string]bool{}
		for _, k := range got[ex.dir] {
			have[k] = true
		}
		for _, k := range keys(want) {
			if !have[k] {
				t.Errorf("%s: marked but not reported: %s", ex.dir, k)
			}
		}
		for _, k := range keys(have) {
			switch {
			case missed[k]:
				t.Errorf("%s: %s is reported now: turn its // syncio-missed: marker into // syncio: and update the guide and the rule page that say syncio misses it", ex.dir, k)
			case !want[k]:
				t.Errorf("%s: reported but not marked: %s", ex.dir, k)
			}
		}
	}
}

// closingRE is a closing line of syncio's text output, as the guide quotes it.
// With findings folded by their cause it counts the request paths too
// ("8 findings, 9 request paths"): the analyzer's diagnostics are the
// paths.
var closingRE = regexp.MustCompile(`^syncio: (SIO\d{3}) \((\d+) findings?(?:, (\d+) request paths)?\): (\S+)$`)

// checkClosingLines: the closing lines the guide quotes for the run over
// these examples are those of this run: one per rule, its count and its
// fix page.
func checkClosingLines(t *testing.T, pages map[string]int) {
	t.Helper()
	quoted := map[string]int{}
	for _, l := range readLines(t, guidePath) {
		if m := closingRE.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[2])
			if m[3] != "" {
				n, _ = strconv.Atoi(m[3])
			}
			quoted[m[1]+" "+m[4]] = n
		}
	}
	if len(quoted) == 0 {
		t.Fatal("the guide quotes no closing lines of the run over the examples")
	}
	for k, n := range pages {
		if quoted[k] != n {
			t.Errorf("the run has %d findings for %q; the guide quotes %d", n, k, quoted[k])
		}
	}
	for k := range quoted {
		if pages[k] == 0 {
			t.Errorf("the guide quotes a closing line for %q, which the run does not print", k)
		}
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
