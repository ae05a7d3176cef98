package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/syncio/syncio/analyzer"
)

// The end-to-end tests build the real binary once and run it the two ways
// users do: as a command and as a go vet tool.

const exampleDir = "examples/badhandlers"

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// syncioBinary builds cmd/syncio into a temporary directory (once per test
// binary run) and returns its path.
func syncioBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "syncio-bin-")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "syncio")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// repoRoot is the module root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	return root
}

// expectation is what the example's marker comments promise.
type expectation struct {
	findings map[string]bool  // "file:line:RULE", file relative to the repo root
	chains   map[string]bool  // "file:line" of findings that must carry a call chain
	clean    []lineRange      // handlers that must have no finding
	lines    map[string][]int // file → marked lines, for messages
}

type lineRange struct {
	file       string
	name       string
	start, end int
}

var markerRE = regexp.MustCompile(`^//\s*syncio:\s*(.+)$`)

// readMarkers parses the example package and collects its markers:
// "// syncio: SIO001" (one or more rule IDs, optionally "chain") at the end
// of a line that must be reported, and "// syncio: clean" on the first line
// of a handler that must not be.
func readMarkers(t *testing.T, root string) expectation {
	t.Helper()
	exp := expectation{findings: map[string]bool{}, chains: map[string]bool{}, lines: map[string][]int{}}
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(root, exampleDir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", exampleDir, err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.ToSlash(filepath.Join(exampleDir, filepath.Base(path)))
		var cleanLines []int
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := markerRE.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				line := fset.Position(c.Pos()).Line
				words := strings.Fields(m[1])
				if len(words) == 1 && words[0] == "clean" {
					cleanLines = append(cleanLines, line)
					continue
				}
				for _, w := range words {
					switch {
					case w == "chain":
						exp.chains[fmt.Sprintf("%s:%d", rel, line)] = true
					case regexp.MustCompile(`^SIO\d{3}$`).MatchString(w):
						exp.findings[fmt.Sprintf("%s:%d:%s", rel, line, w)] = true
						exp.lines[rel] = append(exp.lines[rel], line)
					default:
						t.Fatalf("%s:%d: bad marker word %q", rel, line, w)
					}
				}
			}
		}
		// A clean marker sits on the line that opens a func; the whole
		// body must be free of findings.
		ast.Inspect(f, func(n ast.Node) bool {
			var name string
			switch fn := n.(type) {
			case *ast.FuncDecl:
				name = fn.Name.Name
			case *ast.FuncLit:
				name = "func literal"
			default:
				return true
			}
			start, end := fset.Position(n.Pos()).Line, fset.Position(n.End()).Line
			for _, l := range cleanLines {
				if l == start {
					exp.clean = append(exp.clean, lineRange{rel, name, start, end})
				}
			}
			return true
		})
	}
	if len(exp.findings) == 0 || len(exp.clean) == 0 || len(exp.chains) == 0 {
		t.Fatalf("markers: %d findings, %d clean handlers, %d chains; the example needs all three",
			len(exp.findings), len(exp.clean), len(exp.chains))
	}
	return exp
}

// textFinding is one primary line of the CLI's text output.
type textFinding struct {
	file string
	line int
	rule string
	msg  string
}

var findingRE = regexp.MustCompile(`^(\S+\.go):(\d+):(\d+): (.*\((SIO\d{3})\))$`)

// pageRE is a closing line of the text output: a rule, how many findings
// of it were printed, and the page they link.
var pageRE = regexp.MustCompile(`^syncio: (SIO\d{3}) \((\d+) findings?\): (\S+)$`)

// parseText returns the primary findings (not the indented chain lines),
// the closing lines' pages ("SIO001 3 URL") and any line that is neither.
func parseText(stderr string) (found []textFinding, pages map[string]string, other []string) {
	pages = map[string]string{}
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if l == "" {
			continue
		}
		if m := pageRE.FindStringSubmatch(l); m != nil {
			pages[m[1]+" "+m[2]] = m[3]
			continue
		}
		if m := findingRE.FindStringSubmatch(l); m != nil {
			line, _ := strconv.Atoi(m[2])
			found = append(found, textFinding{filepath.ToSlash(m[1]), line, m[5], m[4]})
			continue
		}
		if strings.Contains(l, ": \t") {
			continue // a Related (call chain) line
		}
		other = append(other, l)
	}
	return found, pages, other
}

func TestExampleFindings(t *testing.T) {
	bin := syncioBinary(t)
	root := repoRoot(t)
	exp := readMarkers(t, root)

	sarifPath := filepath.Join(t.TempDir(), "out.sarif")
	cmd := exec.Command(bin, "-sarif", sarifPath, "./"+exampleDir+"/...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 3 {
		t.Fatalf("exit: %v, want exit status 3; stderr:\n%s", err, stderr.String())
	}

	found, pages, other := parseText(stderr.String())
	// The run ends with the roots line: the example's seven net/http and
	// five gin handlers (two of them literals), all registered in the
	// package.
	const rootsLine = "syncio: roots: 12 request handlers (net/http 7, gin 5; by signature 12); 12 registration calls, every handler resolved"
	if n := len(other); n == 0 || other[n-1] != rootsLine {
		t.Errorf("the output does not end with the roots line %q:\n%s", rootsLine, stderr.String())
	} else {
		other = other[:n-1]
	}
	if len(other) > 0 {
		t.Errorf("unexpected output lines:\n%s", strings.Join(other, "\n"))
	}
	checkPages(t, found, pages, analyzer.DefaultDocsBase)
	got := map[string]bool{}
	for _, f := range found {
		got[fmt.Sprintf("%s:%d:%s", f.file, f.line, f.rule)] = true
	}
	var missing, extra []string
	for k := range exp.findings {
		if !got[k] {
			missing = append(missing, k)
		}
	}
	for k := range got {
		if !exp.findings[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("marked but not reported:\n  %s", strings.Join(missing, "\n  "))
	}
	if len(extra) > 0 {
		t.Errorf("reported but not marked:\n  %s", strings.Join(extra, "\n  "))
	}
	for _, c := range exp.clean {
		for _, f := range found {
			if f.file == c.file && f.line >= c.start && f.line <= c.end {
				t.Errorf("clean handler %s (%s:%d-%d) has a finding: %d: %s", c.name, c.file, c.start, c.end, f.line, f.msg)
			}
		}
	}
	for _, f := range found {
		if !strings.HasSuffix(f.msg, "("+f.rule+")") {
			t.Errorf("%s:%d: message does not end with the rule ID: %q", f.file, f.line, f.msg)
		}
	}

	checkSARIF(t, sarifPath, found, exp)
}

// checkPages checks the closing lines of a text output: one per rule that
// fired, counting its findings and naming its fix page under base.
func checkPages(t *testing.T, found []textFinding, pages map[string]string, base string) {
	t.Helper()
	counts := map[string]int{}
	for _, f := range found {
		counts[f.rule]++
	}
	if len(pages) != len(counts) {
		t.Errorf("%d closing lines for %d rules that fired: %v", len(pages), len(counts), pages)
	}
	for rule, n := range counts {
		key := fmt.Sprintf("%s %d", rule, n)
		if got, want := pages[key], base+analyzer.FixPage(rule); got != want {
			t.Errorf("closing line for %s: page %q, want %q (lines: %v)", key, got, want, pages)
		}
	}
}

// checkSARIF compares the SARIF log with the text findings of the same run.
func checkSARIF(t *testing.T, path string, found []textFinding, exp expectation) {
	t.Helper()
	rep, err := sarif.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	if rep.Version != "2.1.0" || len(rep.Runs) != 1 {
		t.Fatalf("SARIF version %q with %d runs", rep.Version, len(rep.Runs))
	}
	run := rep.Runs[0]
	if run.Tool.Driver.Name == nil || *run.Tool.Driver.Name != "syncio" {
		t.Errorf("driver name = %v", run.Tool.Driver.Name)
	}
	rules := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		rules[*r.ID] = true
		if r.HelpURI == nil || *r.HelpURI != analyzer.FixURL(*r.ID) {
			t.Errorf("rule %s helpUri = %v, want its fix page %s", *r.ID, r.HelpURI, analyzer.FixURL(*r.ID))
		}
	}
	for _, r := range analyzer.Rules {
		if !rules[r.ID] {
			t.Errorf("catalogue rule %s missing from SARIF", r.ID)
		}
	}
	if len(run.Results) != len(found) {
		t.Errorf("SARIF has %d results, text output %d findings", len(run.Results), len(found))
	}
	textSet := map[string]bool{}
	for _, f := range found {
		textSet[fmt.Sprintf("%s:%d:%s", f.file, f.line, f.rule)] = true
	}
	chainsSeen := map[string]bool{}
	for i, res := range run.Results {
		if res.RuleID == nil || !rules[*res.RuleID] {
			t.Errorf("result %d: ruleId %v not a driver rule", i, res.RuleID)
			continue
		}
		if res.Message == nil || res.Message.Text == nil || *res.Message.Text == "" {
			t.Errorf("result %d: no message text", i)
		}
		if len(res.Locations) == 0 || res.Locations[0].PhysicalLocation == nil {
			t.Errorf("result %d: no physical location", i)
			continue
		}
		pl := res.Locations[0].PhysicalLocation
		uri, line := *pl.ArtifactLocation.URI, *pl.Region.StartLine
		if pl.ArtifactLocation.URIBaseID == nil || *pl.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("result %d: uriBaseId = %v, want %%SRCROOT%%", i, pl.ArtifactLocation.URIBaseID)
		}
		key := fmt.Sprintf("%s:%d:%s", uri, line, *res.RuleID)
		if !textSet[key] {
			t.Errorf("SARIF result %s is not in the text output", key)
		}
		at := fmt.Sprintf("%s:%d", uri, line)
		if exp.chains[at] {
			chainsSeen[at] = true
			if len(res.CodeFlows) != 1 || len(res.CodeFlows[0].ThreadFlows) != 1 {
				t.Errorf("%s: want one codeFlow with one threadFlow, got %d codeFlows", at, len(res.CodeFlows))
				continue
			}
			hops := res.CodeFlows[0].ThreadFlows[0].Locations
			// Root → helper → helper → blocking call: at least three hops.
			if len(hops) < 3 {
				t.Errorf("%s: chain has %d hops, want ≥ 3", at, len(hops))
				continue
			}
			first := hops[0].Location.PhysicalLocation
			if *first.ArtifactLocation.URI != uri || *first.Region.StartLine != line {
				t.Errorf("%s: chain starts at %s:%d, want the reported call", at, *first.ArtifactLocation.URI, *first.Region.StartLine)
			}
			for j, h := range hops {
				if h.Location.Message == nil || h.Location.Message.Text == nil || *h.Location.Message.Text == "" {
					t.Errorf("%s: hop %d has no message", at, j)
				}
			}
		}
	}
	for at := range exp.chains {
		if !chainsSeen[at] {
			t.Errorf("%s: marked chain finding not in SARIF", at)
		}
	}
}

// TestVetTool runs the binary the way CI scripts do, under go vet.
func TestVetTool(t *testing.T) {
	bin := syncioBinary(t)
	root := repoRoot(t)
	exp := readMarkers(t, root)

	cmd := exec.Command("go", "vet", "-vettool="+bin, "./"+exampleDir)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		t.Fatalf("go vet: %v (want a non-zero exit for findings)\n%s", err, out)
	}
	// go vet prints paths its own way (relative, maybe with ./); match on
	// the file name suffix, line and rule.
	for k := range exp.findings {
		parts := strings.Split(k, ":") // file, line, rule
		re := regexp.MustCompile(`(?m)` + regexp.QuoteMeta(filepath.Base(parts[0])) + `:` + parts[1] + `:\d+: .*\(` + parts[2] + `\)$`)
		if !re.Match(out) {
			t.Errorf("go vet output lacks %s", k)
		}
	}
	if t.Failed() {
		t.Logf("go vet output:\n%s", out)
	}
}

// TestVetBadFlagOneLine: a bad analyzer flag value under go vet fails the
// run with one line naming the flag, not the usage text once per package
// (dependencies included).
func TestVetBadFlagOneLine(t *testing.T) {
	bin := syncioBinary(t)
	cmd := exec.Command("go", "vet", "-vettool="+bin, "-rules=SIO999", "./analyzer/...", "./"+exampleDir)
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet with -rules=SIO999 succeeded:\n%s", out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		// go vet's "# package" headers and module downloads are not ours.
		if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "go: downloading") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], `syncio: flag -rules: unknown rule "SIO999"`) {
		t.Errorf("want one line naming -rules and SIO999, got %d:\n%s", len(lines), out)
	}
}

// TestBadFlagOneLine: a bad flag value on the command line is one line
// naming the value, what would be valid and where the flags are listed,
// not the error followed by the whole usage text, where it scrolls away.
func TestBadFlagOneLine(t *testing.T) {
	bin := syncioBinary(t)
	cmd := exec.Command(bin, "-rules", "SIO0X", "./...")
	cmd.Dir = t.TempDir() // the flags are rejected before anything is loaded
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("-rules SIO0X: %v, want exit 2\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 1 {
		t.Fatalf("-rules SIO0X: %d lines on stderr, want 1:\n%s", len(lines), stderr.String())
	}
	for _, want := range []string{"-rules", `"SIO0X"`, "SIO001", "SIO006", "syncio -help"} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("-rules SIO0X: %q lacks %q", lines[0], want)
		}
	}
	if stdout.Len() > 0 {
		t.Errorf("-rules SIO0X wrote to stdout: %q", stdout.String())
	}
}

// TestHelpSaysEachDefaultOnce: the flag package appends "(default X)" to
// a usage that does not end in a zero value, so a usage that explains its
// default in words must leave the Value's default at zero.
func TestHelpSaysEachDefaultOnce(t *testing.T) {
	bin := syncioBinary(t)
	out, err := exec.Command(bin, "-h").CombinedOutput()
	if err != nil {
		t.Fatalf("-h: %v\n%s", err, out)
	}
	_, flags, ok := strings.Cut(string(out), "\nFlags:\n")
	if !ok {
		t.Fatalf("-h has no Flags: section:\n%s", out)
	}
	for _, entry := range strings.Split(flags, "\n  -")[1:] {
		if n := strings.Count(entry, "(default"); n > 1 {
			t.Errorf("-%s says its default %d times", strings.TrimSpace(entry), n)
		}
	}
}

// TestUsageMentionsSARIFAndVet checks -h of the real binary.
func TestUsageMentionsSARIFAndVet(t *testing.T) {
	bin := syncioBinary(t)
	out, err := exec.Command(bin, "-h").CombinedOutput()
	if err != nil {
		t.Fatalf("-h: %v\n%s", err, out)
	}
	for _, want := range []string{"-sarif", `go vet -vettool="$(command -v syncio || echo /syncio-not-installed)"`, "-exit-zero", "-fix", "-json"} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("usage lacks %q:\n%s", want, out)
		}
	}
	// The vet protocol still answers as singlechecker does.
	out, err = exec.Command(bin, "-flags").Output()
	if err != nil || !bytes.HasPrefix(bytes.TrimSpace(out), []byte("[")) {
		t.Errorf("-flags: %v, output %q; want a JSON list", err, out)
	}
	if bytes.Contains(out, []byte(`"sarif"`)) {
		t.Errorf("-flags lists -sarif, which go vet cannot honour: %s", out)
	}
	out, err = exec.Command(bin, "-V=full").Output()
	if err != nil || !bytes.Contains(out, []byte("syncio version")) {
		t.Errorf("-V=full: %v, output %q", err, out)
	}
}

// TestFixDiffIsDelegated checks that -fix -diff, which this driver hands to
// singlechecker, prints the suggested fixes as a diff and leaves the files
// alone.
func TestFixDiffIsDelegated(t *testing.T) {
	bin := syncioBinary(t)
	root := repoRoot(t)
	file := filepath.Join(root, exampleDir, "nethttp.go")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-fix", "-diff", "./"+exampleDir)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("-fix -diff: %v\n%s", err, out)
	}
	for _, want := range []string{"+++ ", "-\trows, err := s.DB.Query(", "+\trows, err := s.DB.QueryContext("} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	after, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("-diff modified %s", file)
	}
}
