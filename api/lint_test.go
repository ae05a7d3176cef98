package api_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/syncio/syncio/analyzer"
)

// ignoreRE matches a //syncio:ignore directive and captures its rule IDs.
var ignoreRE = regexp.MustCompile(`//syncio:ignore ([A-Z0-9,]+) --`)

// ignore is one //syncio:ignore directive of the api package.
type ignore struct {
	file string // base name
	line int
	fn   string // enclosing function
	ids  []string
}

// deliberate is what the demo is meant to get flagged for, by function:
// the sync handlers, the serialized lock (sync, and async through the
// literal Await runs), the wrapped "fake async" call (through the literal
// Offload runs) and the per-request client.
// Anything else with an ignore, or any of these without one, fails the test.
var deliberate = map[string][]string{
	"syncProfile":    {"SIO002", "SIO003", "SIO005"},
	"asyncProfile":   {"SIO003"},
	"wrappedProfile": {"SIO002", "SIO003", "SIO005"},
	"syncUpload":     {"SIO002", "SIO004"},
	"asyncUpload":    {"SIO004"},
}

// TestLinterFlagsEveryDeliberateAntipattern runs syncio over the api package
// with its //syncio:ignore comments blanked out (a go/packages overlay), once
// per rule, because the analyzer reports one rule per call site when several
// apply. It then checks both directions: every rule named by an ignore is
// reported on the ignore's line or the next (so no ignore is stale or names
// a rule that does not fire), and every finding is covered by an ignore
// naming its rule (so, with the comments in place, the package is clean: the
// async paths have no findings).
func TestLinterFlagsEveryDeliberateAntipattern(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the api package and its dependencies from source (tens of seconds)")
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	ignores, overlay := scanIgnores(t, dir)

	got := map[string][]string{}
	for _, ig := range ignores {
		got[ig.fn] = append(got[ig.fn], ig.ids...)
	}
	for fn := range got {
		slices.Sort(got[fn])
		got[fn] = slices.Compact(got[fn])
	}
	if !maps.EqualFunc(got, deliberate, slices.Equal) {
		t.Errorf("ignored rules by function = %v, want %v", got, deliberate)
	}

	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Overlay: overlay}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the api package does not load")
	}

	// A finding counts at its own line and at each line of its call chain
	// (Related), because an ignore in a helper stops the finding from
	// propagating to the handlers that call it.
	type at struct {
		file string
		line int
	}
	type finding struct {
		rule, msg string
		lines     []at
	}
	var found []finding
	analyze := func(c analyzer.Config) {
		graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.New(c)}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, act := range graph.Roots {
			if act.Err != nil {
				t.Fatalf("analysis: %v", act.Err)
			}
			fset := act.Package.Fset
			for _, d := range act.Diagnostics {
				pos := fset.Position(d.Pos)
				f := finding{rule: d.Category, msg: d.Message, lines: []at{{filepath.Base(pos.Filename), pos.Line}}}
				for _, r := range d.Related {
					rp := fset.Position(r.Pos)
					f.lines = append(f.lines, at{filepath.Base(rp.Filename), rp.Line})
				}
				found = append(found, f)
			}
		}
	}
	// reports says whether a finding of rule passes through line (or the
	// line after it, where an ignore on its own line applies).
	reports := func(rule string, ig ignore) bool {
		for _, f := range found {
			if f.rule != rule {
				continue
			}
			for _, l := range f.lines {
				if l.file == ig.file && (l.line == ig.line || l.line == ig.line+1) {
					return true
				}
			}
		}
		return false
	}

	// One pass with the default rules, then one per rule an ignore names
	// that the first pass did not report: with several rules on one call
	// site, the analyzer reports one of them.
	analyze(analyzer.DefaultConfig())
	extra := map[string]bool{}
	for _, ig := range ignores {
		for _, id := range ig.ids {
			if !reports(id, ig) {
				extra[id] = true
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(extra)) {
		c := analyzer.DefaultConfig()
		c.Rules = map[string]bool{id: true}
		analyze(c)
	}

	for _, ig := range ignores {
		for _, id := range ig.ids {
			if !reports(id, ig) {
				t.Errorf("%s:%d: //syncio:ignore names %s, but syncio does not report %s there without it", ig.file, ig.line, id, id)
			}
		}
	}
	for _, f := range found {
		covered := false
		for _, ig := range ignores {
			if !slices.Contains(ig.ids, f.rule) {
				continue
			}
			for _, l := range f.lines {
				if l.file == ig.file && (l.line == ig.line || l.line == ig.line+1) {
					covered = true
				}
			}
		}
		if !covered {
			t.Errorf("%s:%d: unsuppressed finding: %s", f.lines[0].file, f.lines[0].line, f.msg)
		}
	}
}

// scanIgnores parses the package's non-test files, records each ignore with
// its enclosing function, and returns an overlay with the directives blanked
// (same length, so every position stays put).
func scanIgnores(t *testing.T, dir string) ([]ignore, map[string][]byte) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var ignores []ignore
	overlay := map[string][]byte{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		stripped := bytes.Clone(src)
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := ignoreRE.FindStringSubmatch(c.Text)
				if m == nil || !strings.HasPrefix(c.Text, "//syncio:ignore") {
					continue
				}
				pos := fset.Position(c.Pos())
				ignores = append(ignores, ignore{
					file: filepath.Base(path), line: pos.Line,
					fn: enclosingFunc(f, c.Pos()), ids: strings.Split(m[1], ","),
				})
				copy(stripped[pos.Offset:], bytes.Repeat([]byte(" "), len(c.Text)))
			}
		}
		if !bytes.Equal(src, stripped) {
			overlay[path] = stripped
		}
	}
	if len(ignores) == 0 {
		t.Fatal("no //syncio:ignore directives found in the api package")
	}
	return ignores, overlay
}

func enclosingFunc(f *ast.File, pos token.Pos) string {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
			return fd.Name.Name
		}
	}
	return ""
}
