package driver_test

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/cmd/syncio/driver"
	"github.com/syncio/syncio/cmd/syncio/sarifreport"
)

// twoRules flags calls to block (SIO001) and wait (SIO005), each with its
// rule's fix page as URL, as the syncio analyzer does.
var twoRules = &analysis.Analyzer{
	Name:      "syncio",
	Doc:       "syncio (test double with two rules).",
	FactTypes: []analysis.Fact{new(marker)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				id, ok := call.Fun.(*ast.Ident)
				if !ok {
					return true
				}
				rule := map[string]string{"block": "SIO001", "wait": "SIO005"}[id.Name]
				if rule != "" {
					pass.Report(analysis.Diagnostic{
						Pos: call.Pos(), End: call.End(), Category: rule,
						URL:     "https://example.test/docs/remediation/" + rule + ".md",
						Message: "Handler calls " + id.Name + ", which waits (" + rule + ")",
					})
				}
				return true
			})
		}
		return nil, nil
	},
}

// fixModule writes a module whose handler blocks twice and waits once.
func fixModule(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":  "module example.com/fix\n\ngo 1.26\n",
		"h/h.go":  "package h\n\nfunc block() {}\n\nfunc wait() {}\n\nfunc Handler() {\n" + body + "}\n",
		"h/ok.go": "package h\n\nfunc Other() {}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runFix(t *testing.T, dir string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := driver.Run(driver.Config{Analyzer: twoRules, Dir: dir, Stdout: &out, Stderr: &errb}, args)
	return result{code, out.String(), errb.String()}
}

var findingLine = regexp.MustCompile(`^h/h\.go:\d+:\d+: Handler calls \w+, which waits \(SIO00\d\)$`)

// TestFixPagesClosingLines: the text output names each rule's fix page
// once, after the findings, with the number of findings of that rule;
// every finding line stays "file:line:col: message (SIOnnn)".
func TestFixPagesClosingLines(t *testing.T) {
	dir := fixModule(t, "\tblock()\n\twait()\n\tblock()\n")
	r := runFix(t, dir, "./...")
	if r.code != driver.ExitFindings {
		t.Fatalf("exit %d, want 3:\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	want := []string{
		"syncio: SIO001 (2 findings): https://example.test/docs/remediation/SIO001.md",
		"syncio: SIO005 (1 finding): https://example.test/docs/remediation/SIO005.md",
	}
	if len(lines) != 5 {
		t.Fatalf("stderr has %d lines, want 3 findings and 2 closing lines:\n%s", len(lines), r.stderr)
	}
	for _, l := range lines[:3] {
		if !findingLine.MatchString(l) {
			t.Errorf("finding line changed: %q", l)
		}
	}
	for i, w := range want {
		if lines[3+i] != w {
			t.Errorf("closing line %d = %q, want %q", i+1, lines[3+i], w)
		}
	}

	// With -json the pages are in the JSON, not on stderr.
	r = runFix(t, dir, "-json", "./...")
	if strings.Contains(r.stderr, "remediation/") {
		t.Errorf("-json: stderr names pages:\n%s", r.stderr)
	}
	var tree map[string]map[string][]struct {
		Category string `json:"category"`
		URL      string `json:"url"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("-json: %v\n%s", err, r.stdout)
	}
	diags := tree["example.com/fix/h"]["syncio"]
	if len(diags) != 3 {
		t.Fatalf("-json: %d diagnostics, want 3:\n%s", len(diags), r.stdout)
	}
	for _, d := range diags {
		if d.URL != "https://example.test/docs/remediation/"+d.Category+".md" {
			t.Errorf("-json: %s url %q, want its fix page", d.Category, d.URL)
		}
	}
}

// TestFixPagesCountShownFindings: with -baseline, the closing lines count
// the findings shown (the new ones), not those in the baseline.
func TestFixPagesCountShownFindings(t *testing.T) {
	dir := fixModule(t, "\tblock()\n\twait()\n")
	if r := runFix(t, dir, "-baseline", "b.json", "./..."); r.code != driver.ExitClean || strings.Contains(r.stderr, "remediation/") {
		t.Fatalf("writing the baseline: exit %d, and no finding shown, so no page:\n%s", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "h/h.go"), []byte("package h\n\nfunc block() {}\n\nfunc wait() {}\n\nfunc Handler() {\n\tblock()\n\twait()\n\tblock()\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runFix(t, dir, "-baseline", "b.json", "./...")
	if !strings.Contains(r.stderr, "syncio: SIO001 (1 finding): https://example.test/docs/remediation/SIO001.md\n") || strings.Contains(r.stderr, "SIO005 (") {
		t.Errorf("closing lines should count the one new SIO001 finding only:\n%s", r.stderr)
	}
}

// TestCatalogueWinsOverRules: a Catalogue function, called once the flags
// are parsed, gives the SARIF rules (and their help URLs).
func TestCatalogueWinsOverRules(t *testing.T) {
	dir := fixModule(t, "\tblock()\n")
	out := filepath.Join(t.TempDir(), "out.sarif")
	var errb bytes.Buffer
	driver.Run(driver.Config{
		Analyzer: twoRules, Dir: dir, Stderr: &errb,
		Rules: []sarifreport.Rule{{ID: "SIO001", Name: "blocking-call", Short: "old", HelpURI: "https://old.test/SIO001.md"}},
		Catalogue: func() []sarifreport.Rule {
			return []sarifreport.Rule{{ID: "SIO001", Name: "blocking-call", Short: "blocking call",
				HelpURI: "https://example.test/docs/remediation/SIO001.md", RuleURI: "https://example.test/docs/rules/SIO001.md"}}
		},
	}, []string{"-sarif", out, "./..."})
	rep, err := sarif.Open(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	r := rep.Runs[0].Tool.Driver.Rules[0]
	if r.HelpURI == nil || *r.HelpURI != "https://example.test/docs/remediation/SIO001.md" {
		t.Errorf("helpUri = %v, want the Catalogue's", r.HelpURI)
	}
	if r.Help == nil || r.Help.Text == nil || !strings.Contains(*r.Help.Text, "How to fix it: https://example.test/docs/remediation/SIO001.md") ||
		!strings.Contains(*r.Help.Text, "https://example.test/docs/rules/SIO001.md") {
		t.Errorf("help text should name the fix page and the rule page: %v", r.Help)
	}
}
