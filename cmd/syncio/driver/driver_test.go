package driver_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"io"
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

// marker is a fact type; declaring one makes the driver load and analyse
// dependencies the way it must for the real, fact-based analyzer.
type marker struct{}

func (*marker) AFact()         {}
func (*marker) String() string { return "marker" }

// testAnalyzer stands in for the syncio analyzer: it follows the same
// contract (Category = rule ID, URL, message ending in the rule ID, Related
// = call chain) and flags every call to a function named block.
var testAnalyzer = &analysis.Analyzer{
	Name:      "syncio",
	Doc:       "syncio (test double) flags calls to block.\n\nA second paragraph.",
	URL:       "https://example.test/syncio",
	FactTypes: []analysis.Fact{new(marker)},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "block" {
					pass.Report(analysis.Diagnostic{
						Pos:      call.Pos(),
						End:      call.End(),
						Category: "SIO001",
						URL:      "https://example.test/SIO001.md",
						Message:  "Handler calls block, which blocks without the request context (SIO001)",
						Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "calls block"}},
					})
				}
				return true
			})
		}
		return nil, nil
	},
}

var testRules = []sarifreport.Rule{
	{ID: "SIO001", Name: "blocking-call", Short: "blocking call", HelpURI: "https://example.test/SIO001.md"},
	{ID: "SIO005", Name: "uncancellable-wait", Short: "wait", HelpURI: "https://example.test/SIO005.md"},
}

const modDir = "testdata/mod"

type result struct {
	code           int
	stdout, stderr string
}

func run(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := driver.Run(driver.Config{
		Analyzer: testAnalyzer,
		Rules:    testRules,
		Dir:      modDir,
		Stdout:   &out,
		Stderr:   &errb,
	}, args)
	return result{code, out.String(), errb.String()}
}

// markerLine returns the 1-based line of the first line in file containing
// substr, so expectations follow the testdata instead of hard-coded numbers.
func markerLine(t *testing.T, file, substr string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(modDir, file))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, substr) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line containing %q", file, substr)
	return 0
}

func TestFindingsExitThree(t *testing.T) {
	r := run(t, "./good")
	if r.code != driver.ExitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, driver.ExitFindings, r.stderr)
	}
	line := markerLine(t, "good/good.go", "// finding")
	want := fmt.Sprintf("good/good.go:%d:2: Handler calls block, which blocks without the request context (SIO001)\n"+
		"good/good.go:%d:2: \tcalls block\n"+
		"syncio: SIO001 (1 finding): https://example.test/SIO001.md\n", line, line)
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	if r.stdout != "" {
		t.Errorf("stdout not empty: %q", r.stdout)
	}
}

// TestExitZero: -exit-zero reports the findings as usual but exits 0
// ("report, don't block"); a package that fails to load still fails.
func TestExitZero(t *testing.T) {
	r := run(t, "-exit-zero", "./good")
	if r.code != driver.ExitClean {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, driver.ExitClean, r.stderr)
	}
	if !strings.Contains(r.stderr, "(SIO001)") {
		t.Errorf("-exit-zero dropped the findings; stderr:\n%s", r.stderr)
	}
	r = run(t, "-exit-zero", "./good", "./bad")
	if r.code != driver.ExitError {
		t.Errorf("-exit-zero with a broken package: exit %d, want %d; stderr:\n%s", r.code, driver.ExitError, r.stderr)
	}
}

func TestCleanExitZero(t *testing.T) {
	r := run(t, "./clean")
	if r.code != driver.ExitClean || r.stderr != "" {
		t.Errorf("exit %d stderr %q, want 0 and nothing", r.code, r.stderr)
	}
}

// A package that does not type-check is named in one line per error, and
// the other packages are still analysed and reported.
func TestBrokenPackageDoesNotStopTheRun(t *testing.T) {
	sarifPath := filepath.Join(t.TempDir(), "out.sarif")
	r := run(t, "-sarif", sarifPath, "-sarif-root", ".", "./...")
	if r.code != driver.ExitError {
		t.Errorf("exit %d, want %d (incomplete run)", r.code, driver.ExitError)
	}
	badLine := markerLine(t, "bad/bad.go", "// type error")
	wantErr := fmt.Sprintf("syncio: package example.com/mod/bad: type error: bad/bad.go:%d:9: undefined: undefinedName\n", badLine)
	if strings.Count(r.stderr, wantErr) != 1 {
		t.Errorf("stderr should contain exactly once:\n%s\ngot:\n%s", wantErr, r.stderr)
	}
	for _, want := range []string{
		"syncio: package example.com/mod/bad not analysed: analysis skipped due to errors in package\n",
		// usesbad type-checks, but the facts of its dependency are missing.
		"syncio: package example.com/mod/usesbad not analysed: failed prerequisites",
		fmt.Sprintf("good/good.go:%d:2: Handler calls block", markerLine(t, "good/good.go", "// finding")),
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("stderr looks like a crash:\n%s", r.stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(r.stderr), "\n") {
		if strings.HasPrefix(l, "syncio: ") && !strings.Contains(l, "example.com/mod/") && !strings.HasPrefix(l, "syncio: exit 1: ") &&
			l != "syncio: SIO001 (1 finding): https://example.test/SIO001.md" {
			t.Errorf("error line does not name its package: %q", l)
		}
	}

	rep, err := sarif.Open(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("schema: %v", err)
	}
	run0 := rep.Runs[0]
	if len(run0.Results) != 1 || *run0.Results[0].RuleID != "SIO001" {
		t.Fatalf("SARIF results = %d, want the one finding in good", len(run0.Results))
	}
	uri := *run0.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI
	if uri != "good/good.go" {
		t.Errorf("SARIF uri = %q, want good/good.go (relative to -sarif-root .)", uri)
	}
	inv := run0.Invocations[0]
	if inv.ExecutionSuccessful == nil || *inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) == 0 {
		t.Errorf("invocation should be unsuccessful with notifications: %+v", inv)
	}
	if *run0.Tool.Driver.Name != "syncio" || len(run0.Tool.Driver.Rules) != len(testRules) {
		t.Errorf("driver %q with %d rules, want syncio with %d", *run0.Tool.Driver.Name, len(run0.Tool.Driver.Rules), len(testRules))
	}
	if len(run0.Results[0].CodeFlows) != 1 {
		t.Errorf("result has %d codeFlows, want 1 from Related", len(run0.Results[0].CodeFlows))
	}
}

func TestJSON(t *testing.T) {
	r := run(t, "-json", "./good")
	if r.code != driver.ExitClean {
		t.Errorf("exit %d, want 0 (as singlechecker -json)", r.code)
	}
	var tree map[string]map[string][]struct {
		Posn    string `json:"posn"`
		Message string `json:"message"`
		URL     string `json:"url"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &tree); err != nil {
		t.Fatalf("stdout is not the JSON tree: %v\n%s", err, r.stdout)
	}
	diags := tree["example.com/mod/good"]["syncio"]
	if len(diags) != 1 || !strings.HasSuffix(diags[0].Message, "(SIO001)") {
		t.Errorf("JSON diagnostics = %+v", diags)
	}
	if len(diags) == 1 && diags[0].URL != "https://example.test/SIO001.md" {
		t.Errorf("JSON url = %q, want the diagnostic's URL", diags[0].URL)
	}
}

func TestContextLines(t *testing.T) {
	r := run(t, "-c", "0", "./good")
	line := markerLine(t, "good/good.go", "// finding")
	want := fmt.Sprintf("%d\t\tblock() // finding\n", line)
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks the source line %q:\n%s", want, r.stderr)
	}
}

func TestUsage(t *testing.T) {
	r := run(t, "-h")
	if r.code != driver.ExitClean {
		t.Errorf("-h exit %d, want 0", r.code)
	}
	for _, want := range []string{"-sarif", `go vet -vettool="$(command -v syncio || echo /syncio-not-installed)" ./...`, "-exit-zero", "syncio (test double) flags calls to block.", "-json", "-fix"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("usage lacks %q:\n%s", want, r.stderr)
		}
	}
	if r := run(t); r.code != driver.ExitUsage || !strings.Contains(r.stderr, "Usage:") {
		t.Errorf("no packages: exit %d, stderr %q; want usage and exit 2", r.code, r.stderr)
	}
	// One line that says what is wrong, not the usage text after it.
	if r := run(t, "-nosuchflag", "./good"); r.code != driver.ExitUsage ||
		r.stderr != "syncio: flag provided but not defined: -nosuchflag; run syncio -help for the flags\n" {
		t.Errorf("unknown flag: exit %d, stderr %q; want 2 and one line", r.code, r.stderr)
	}
	if r := run(t, "-fix", "-sarif", "x.sarif", "./good"); r.code != driver.ExitUsage || !strings.Contains(r.stderr, "cannot be combined") {
		t.Errorf("-fix with -sarif: exit %d stderr %q", r.code, r.stderr)
	}
	if r := run(t, "-fix", "-confirm", "x.json", "./good"); r.code != driver.ExitUsage || !strings.Contains(r.stderr, "-confirm cannot be combined") {
		t.Errorf("-fix with -confirm: exit %d stderr %q", r.code, r.stderr)
	}
	if r := run(t, "-diff", "-roots-report", "r.json", "-strict-roots", "./good"); r.code != driver.ExitUsage ||
		!strings.Contains(r.stderr, "-roots-report and -strict-roots cannot be combined") {
		t.Errorf("-diff with -roots-report: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestConfirmBadReportIsUsageError(t *testing.T) {
	r := run(t, "-confirm", "no-such-blocking.json", "./good")
	if r.code != driver.ExitUsage || !strings.Contains(r.stderr, "-confirm no-such-blocking.json: read blocking report") {
		t.Errorf("missing -confirm file: exit %d, stderr %q; want 2 naming the flag and file", r.code, r.stderr)
	}
}

func TestNoSuchPackage(t *testing.T) {
	r := run(t, "./nosuchdir")
	if r.code != driver.ExitError {
		t.Errorf("exit %d, want 1", r.code)
	}
	if !regexp.MustCompile(`(?m)^syncio: (package \S+: )?.*nosuchdir`).MatchString(r.stderr) {
		t.Errorf("stderr does not name the missing package:\n%s", r.stderr)
	}
}

func TestIsVetProtocol(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-V=full"}, true},
		{[]string{"--V=full"}, true},
		{[]string{"-flags"}, true},
		{[]string{"-json", "/tmp/go-build/b001/vet.cfg"}, true},
		{[]string{"./..."}, false},
		{[]string{"-sarif", "out.sarif", "./..."}, false},
		{[]string{"-fix", "./pkg"}, false},
		{nil, false},
	} {
		if got := driver.IsVetProtocol(tc.args); got != tc.want {
			t.Errorf("IsVetProtocol(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

// The analyzer's flags are settable by their plain names, and one that
// clashes with a driver flag does not crash the flag set.
func TestAnalyzerFlags(t *testing.T) {
	var rules string
	var clash bool
	a := *testAnalyzer
	a.Flags = *flag.NewFlagSet("syncio", flag.ContinueOnError)
	a.Flags.StringVar(&rules, "rules", "SIO001", "enabled rules")
	a.Flags.BoolVar(&clash, "json", false, "clashes with the driver's -json")
	var errb bytes.Buffer
	code := driver.Run(driver.Config{Analyzer: &a, Dir: modDir, Stdout: io.Discard, Stderr: &errb},
		[]string{"-rules", "SIO005", "./clean"})
	if code != driver.ExitClean {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	if rules != "SIO005" {
		t.Errorf("-rules not passed to the analyzer: %q", rules)
	}
}

// TestMissingEmbedFile: a //go:embed pattern that matches no file fails
// the run (exit 1, one line naming the package and the pattern), as it
// fails go build and go vet, though the fact-based load hides the error.
func TestMissingEmbedFile(t *testing.T) {
	r := run(t, "./embedmiss", "./good")
	if r.code != driver.ExitError {
		t.Errorf("exit %d, want %d; stderr:\n%s", r.code, driver.ExitError, r.stderr)
	}
	want := "syncio: package example.com/mod/embedmiss: embed error: pattern missing.txt: no matching files found\n"
	if strings.Count(r.stderr, want) != 1 {
		t.Errorf("stderr should contain exactly once:\n%s\ngot:\n%s", want, r.stderr)
	}
	if !strings.Contains(r.stderr, "Handler calls block") {
		t.Errorf("the other package's finding is missing:\n%s", r.stderr)
	}
}

// TestTestFilesFollowTests: with the analyzer's -tests off (its default)
// test variants are not loaded, so a _test.go file that does not compile
// (a type error in svc; in ext, an external test package with a syntax
// error in a body) fails nothing and a finding is printed once; -tests or
// -test load them and the errors fail the run, naming the file.
//
// Issue 36 asked for one stderr line naming what was skipped; the default
// run stays silent instead, because the driver never sees those files:
// go/packages runs go list with -test=false and does not even ask for the
// test files' names, so naming them would take a second load. The
// silence is checked here so that a loader that starts reading test files
// with tests off shows up, and the note can then be written for free.
func TestTestFilesFollowTests(t *testing.T) {
	var tests bool
	a := *testAnalyzer
	a.Flags = *flag.NewFlagSet("syncio", flag.ContinueOnError)
	a.Flags.BoolVar(&tests, "tests", false, "also analyse _test.go files")
	for _, c := range []struct {
		args []string
		code int
	}{
		{nil, driver.ExitFindings},
		{[]string{"-tests"}, driver.ExitError},
		{[]string{"-test"}, driver.ExitError},
		{[]string{"-tests", "-test=false"}, driver.ExitFindings},
	} {
		tests = false
		var errb bytes.Buffer
		args := append(append([]string{}, c.args...), "./...")
		code := driver.Run(driver.Config{Analyzer: &a, Dir: "testdata/testsmod", Stdout: io.Discard, Stderr: &errb}, args)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", c.args, code, c.code, errb.String())
			continue
		}
		// The package's own variant loads either way, so its finding is
		// reported even when its test variant fails the run.
		if n := strings.Count(errb.String(), "(SIO001)"); n != 1 {
			t.Errorf("%v: %d findings, want 1; stderr:\n%s", c.args, n, errb.String())
		}
		for _, file := range []string{"svc_test.go", "ext_test.go"} {
			if named := strings.Contains(errb.String(), file); named != (c.code == driver.ExitError) {
				t.Errorf("%v: %s named on stderr = %v, want %v; stderr:\n%s", c.args, file, named, !named, errb.String())
			}
		}
	}
}

// TestTestFileHeadersFailEveryRun: a _test.go file whose package clause
// names another package, or whose import block does not parse, is an
// error of the package itself: go list reads every file's header to list
// it, tests or not, and go build rejects the package too. So it fails the
// run with tests off, naming the file, where a type error in a test body
// does not (TestTestFilesFollowTests); -partial leaves it out of the exit
// code as any package that does not load.
func TestTestFileHeadersFailEveryRun(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
	}{
		{nil, driver.ExitError},
		{[]string{"-partial"}, driver.ExitClean},
	} {
		var errb bytes.Buffer
		args := append(append([]string{}, c.args...), "./...")
		code := driver.Run(driver.Config{Analyzer: testAnalyzer, Dir: "testdata/testsheadmod", Stdout: io.Discard, Stderr: &errb}, args)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", c.args, code, c.code, errb.String())
		}
		for _, file := range []string{"clause_test.go", "imports/imports_test.go"} {
			if !strings.Contains(errb.String(), file) {
				t.Errorf("%v: stderr does not name %s:\n%s", c.args, file, errb.String())
			}
		}
	}
}

// TestSARIFRoot: code scanning resolves SARIF paths against the
// repository's root, so by default they start at the top of the git work
// tree (a module in backend/ says backend/good/good.go); outside a work
// tree, and with -sarif-root, they start where they are told.
func TestSARIFRoot(t *testing.T) {
	repo := t.TempDir()
	mod := filepath.Join(repo, "backend")
	for _, f := range []string{"go.mod", "good/good.go"} {
		data, err := os.ReadFile(filepath.Join(modDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := func(args ...string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out.sarif")
		var errb bytes.Buffer
		code := driver.Run(driver.Config{Analyzer: testAnalyzer, Rules: testRules, Dir: mod, Stdout: io.Discard, Stderr: &errb},
			append([]string{"-sarif", out}, append(args, "./good")...))
		if code != driver.ExitFindings {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, driver.ExitFindings, errb.String())
		}
		rep, err := sarif.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		res := rep.Runs[0].Results
		if len(res) != 1 {
			t.Fatalf("%d results, want 1", len(res))
		}
		return *res[0].Locations[0].PhysicalLocation.ArtifactLocation.URI
	}
	if got := uri(); got != "good/good.go" {
		t.Errorf("outside a git work tree: uri %q, want good/good.go", got)
	}
	// A worktree or submodule has a .git file, not a directory.
	if err := os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := uri(); got != "backend/good/good.go" {
		t.Errorf("module in backend/ of a work tree: uri %q, want backend/good/good.go", got)
	}
	if got := uri("-sarif-root", "."); got != "good/good.go" {
		t.Errorf("-sarif-root .: uri %q, want good/good.go", got)
	}
	if got := uri("-sarif-root", ".."); got != "backend/good/good.go" {
		t.Errorf("-sarif-root ..: uri %q, want backend/good/good.go", got)
	}
	var errb bytes.Buffer
	if code := driver.Run(driver.Config{Analyzer: testAnalyzer, Rules: testRules, Dir: mod, Stdout: io.Discard, Stderr: &errb},
		[]string{"-sarif-root", ".", "./good"}); code != driver.ExitUsage || !strings.Contains(errb.String(), "give -sarif too") {
		t.Errorf("-sarif-root without -sarif: exit %d, stderr %q; want %d and a line that says so", code, errb.String(), driver.ExitUsage)
	}
}
