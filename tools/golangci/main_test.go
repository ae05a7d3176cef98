package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// asLinter makes the test binary act as the golangci-lint command, so the
// test drives exactly this package's main() without a second build.
const asLinter = "SYNCIO_TEST_RUN_AS_GOLANGCI_LINT"

// binEnv names an already built custom binary (e.g. bin/golangci-lint) to
// test instead of the test binary itself.
const binEnv = "SYNCIO_GOLANGCI_LINT"

func TestMain(m *testing.M) {
	if os.Getenv(asLinter) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var (
	findingMarker = regexp.MustCompile(`// finding: (SIO\d{3})`)
	relatedMarker = regexp.MustCompile(`// related$`)
	ruleSuffix    = regexp.MustCompile(`\((SIO\d{3})\)$`)
)

// relatedPrefix starts the text of the issue golangci-lint makes of each
// Related entry of a diagnostic.
const relatedPrefix = "syncio(related information): "

// issue is the part of golangci-lint's JSON output the test reads.
type issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename string
		Line     int
		Column   int
	}
}

// versionLine is what `golangci-lint version` must say of a custom build:
// the Go it was built with and the golangci-lint and syncio it was built
// from, not golangci-lint's empty ldflags defaults.
var versionLine = regexp.MustCompile(`^golangci-lint has version \(devel\) built with (go\S+) from golangci-lint (v2\.\d+\.\d+) and syncio \S.* on \S`)

// TestVersion: a user asked for the version of the custom binary is told
// what it is.
func TestVersion(t *testing.T) {
	l := newLinter(t)
	out, stderr, code := l.run(t, t.TempDir(), "version")
	m := versionLine.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("version: exit %d, %q (stderr %q); want it to match %s", code, out, stderr, versionLine)
	}
	if m[1] != runtime.Version() {
		t.Errorf("version names %s, this is %s", m[1], runtime.Version())
	}
}

// TestPluginReportsFindings runs the custom binary with the plugin's
// default settings: every marked line is reported with its rule ID, the
// hops of a chain as related information, and nothing else, so
// //nolint:syncio and //syncio:ignore both hold.
func TestPluginReportsFindings(t *testing.T) {
	l := newLinter(t)
	dir := copySvc(t, "default.golangci.yml")
	want, wantRelated := markers(t, filepath.Join(dir, "handlers.go"))
	if len(want) < 4 || len(wantRelated) == 0 {
		t.Fatalf("testdata has %d finding and %d related markers, want at least 4 and 1", len(want), len(wantRelated))
	}
	got, related, code := l.issues(t, dir)
	if code != 1 {
		t.Errorf("exit code %d, want 1 (issues found)", code)
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings (line: rule)\n got %v\nwant %v", got, want)
	}
	if !slices.Equal(related, wantRelated) {
		t.Errorf("related information\n got %v\nwant %v", related, wantRelated)
	}
}

// TestRelatedExclusion checks the exclusion rule docs/ci.md suggests: it
// drops the related-information issues and keeps every finding.
func TestRelatedExclusion(t *testing.T) {
	l := newLinter(t)
	dir := copySvc(t, "norelated.golangci.yml")
	want, _ := markers(t, filepath.Join(dir, "handlers.go"))
	got, related, _ := l.issues(t, dir)
	if !slices.Equal(got, want) {
		t.Errorf("findings (line: rule)\n got %v\nwant %v", got, want)
	}
	if len(related) > 0 {
		t.Errorf("related information not excluded: %v", related)
	}
}

// TestPluginSettings switches SIO005 off in the plugin's settings: its
// findings disappear and the others stay.
func TestPluginSettings(t *testing.T) {
	l := newLinter(t)
	dir := copySvc(t, "nosio005.golangci.yml")
	var want []string
	all, _ := markers(t, filepath.Join(dir, "handlers.go"))
	for _, f := range all {
		if !strings.HasSuffix(f, "SIO005") {
			want = append(want, f)
		}
	}
	got, _, _ := l.issues(t, dir)
	if !slices.Equal(got, want) {
		t.Errorf("findings with SIO005 off (line: rule)\n got %v\nwant %v", got, want)
	}
}

// TestPluginAllow allows the helper at the end of the Report chain: the
// chain's finding and its related information disappear, the rest stays.
func TestPluginAllow(t *testing.T) {
	l := newLinter(t)
	dir := copySvc(t, "allow.golangci.yml")
	all, _ := markers(t, filepath.Join(dir, "handlers.go"))
	chain := findingAt(t, filepath.Join(dir, "handlers.go"), "load(); err != nil")
	want := slices.DeleteFunc(slices.Clone(all), func(f string) bool { return f == chain })
	if len(want) != len(all)-1 {
		t.Fatalf("chain finding %q is not among the markers %v", chain, all)
	}
	got, related, _ := l.issues(t, dir)
	if !slices.Equal(got, want) {
		t.Errorf("findings with svc.fetch allowed (line: rule)\n got %v\nwant %v", got, want)
	}
	if len(related) > 0 {
		t.Errorf("related information of an allowed chain: %v", related)
	}
}

// TestPluginStrictRoots: golangci-lint has no end of run, so a package
// whose registrations lead to no handler syncio can follow is silent by
// default; strict-roots reports it as one SIO000 issue at its first
// registration call. The module is cmd/syncio's testdata/roots: served's
// handler is followed, blind's are kept in struct fields.
func TestPluginStrictRoots(t *testing.T) {
	l := newLinter(t)
	src := filepath.Join("..", "..", "cmd", "syncio", "testdata", "roots")
	served, _ := markers(t, filepath.Join(src, "served", "served.go"))
	if len(served) != 1 {
		t.Fatalf("served.go has %d finding markers, want 1", len(served))
	}
	for _, c := range []struct {
		cfg  string
		want []string
	}{
		{"default.golangci.yml", served},
		{"strictroots.golangci.yml", append([]string{"blind.go:10: SIO000"}, served...)},
	} {
		dir := copyDir(t, src, c.cfg)
		var got []string
		issues, code := l.report(t, dir)
		for _, is := range issues {
			m := ruleSuffix.FindStringSubmatch(is.Text)
			if m == nil || (m[1] == "SIO000") != strings.Contains(is.Text, "registers routes (2 registration calls) but syncio found no request root in it") {
				t.Errorf("%s: %s:%d: %s", c.cfg, is.Pos.Filename, is.Pos.Line, is.Text)
				continue
			}
			got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(is.Pos.Filename), is.Pos.Line, m[1]))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) || code != 1 {
			t.Errorf("%s: exit %d, issues %v; want exit 1, %v", c.cfg, code, got, c.want)
		}
	}
}

// TestPluginTestFiles keeps the drivers table's golangci-lint cell for a
// _test.go file that does not compile true: golangci-lint, not the plugin,
// decides whether test files are loaded (run.tests, true by default). The
// module is cmd/syncio's testdata/drivers, whose testbroken package has a
// finding and a test file with a type error.
func TestPluginTestFiles(t *testing.T) {
	l := newLinter(t)
	dir := copyDir(t, filepath.Join("..", "..", "cmd", "syncio", "testdata", "drivers"), "default.golangci.yml")
	for _, c := range []struct {
		tests string
		want  []string // linter, file:line
	}{
		// The package's finding is lost to the typecheck issue.
		{"true", []string{"typecheck testbroken.go:1"}},
		{"false", []string{"syncio testbroken.go:9"}},
	} {
		stdout, stderr, code := l.run(t, dir, "run", "--output.json.path", "stdout", "--show-stats=false", "--tests="+c.tests, "./testbroken")
		var report struct{ Issues []issue }
		if err := json.Unmarshal([]byte(stdout), &report); err != nil {
			t.Fatalf("--tests=%s: exit %d, output is not golangci-lint JSON: %v\nstdout: %s\nstderr: %s", c.tests, code, err, stdout, stderr)
		}
		var got []string
		for _, is := range report.Issues {
			got = append(got, fmt.Sprintf("%s %s:%d", is.FromLinter, filepath.Base(is.Pos.Filename), is.Pos.Line))
			if is.FromLinter == "typecheck" && !strings.Contains(is.Text, "testbroken_test.go") {
				t.Errorf("--tests=%s: the typecheck issue does not name the test file: %s", c.tests, is.Text)
			}
		}
		if !slices.Equal(got, c.want) || code != 1 {
			t.Errorf("--tests=%s: exit %d, issues %v; want exit 1, %v", c.tests, code, got, c.want)
		}
	}
}

// TestPluginRejectsBadSettings: an invalid setting fails the run with an
// error that names it, rather than being ignored.
func TestPluginRejectsBadSettings(t *testing.T) {
	l := newLinter(t)
	dir := copySvc(t, "badsettings.golangci.yml")
	stdout, stderr, code := l.run(t, dir, "run", "./...")
	if code == 0 || code == 1 {
		t.Fatalf("exit code %d, want a failure (not 0 or 1)\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if !strings.Contains(strings.ToUpper(stderr), "SIO999") || !strings.Contains(stderr, "syncio settings") {
		t.Errorf("stderr does not name the bad rule ID:\n%s", stderr)
	}
}

// TestPluginFix applies the suggested fixes with --fix and compares the
// result with the golden file, which must still build.
func TestPluginFix(t *testing.T) {
	l := newLinter(t)
	dir := copySvc(t, "default.golangci.yml")
	stdout, stderr, code := l.run(t, dir, "run", "--fix", "./...")
	if code != 0 && code != 1 {
		t.Fatalf("--fix: exit code %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "handlers.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "svc", "handlers.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("handlers.go after --fix differs from handlers.go.golden:\n%s", got)
	}
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("fixed module does not build: %v\n%s", err, out)
	}
}

// linter runs golangci-lint: the binary named by $SYNCIO_GOLANGCI_LINT, or
// this test binary acting as it.
type linter struct {
	path  string
	env   []string
	cache string
}

func newLinter(t *testing.T) *linter {
	t.Helper()
	l := &linter{path: os.Getenv(binEnv), cache: t.TempDir()}
	if l.path == "" {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		l.path = exe
		l.env = append(l.env, asLinter+"=1")
	} else if abs, err := filepath.Abs(l.path); err == nil {
		l.path = abs
	}
	return l
}

// run runs the linter in dir with a private result cache and returns its
// output and exit code.
func (l *linter) run(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), l.env...)
	// A private TMPDIR gives this run its own golangci-lint.lock, so a
	// golangci-lint run elsewhere on the machine cannot fail the test with
	// "parallel golangci-lint is running"; the result cache is private too.
	tmp := t.TempDir()
	cmd.Env = append(cmd.Env,
		"TMPDIR="+tmp,
		"GOLANGCI_LINT_CACHE="+l.cache,
		"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
	)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("running %s %v: %v\nstderr: %s", l.path, args, err, errb.String())
	}
	return out.String(), errb.String(), code
}

// report runs the linter in dir and returns every issue it printed.
func (l *linter) report(t *testing.T, dir string) ([]issue, int) {
	t.Helper()
	stdout, stderr, code := l.run(t, dir, "run", "--output.json.path", "stdout", "--show-stats=false", "./...")
	var report struct{ Issues []issue }
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("exit %d, output is not golangci-lint JSON: %v\nstdout: %s\nstderr: %s", code, err, stdout, stderr)
	}
	return report.Issues, code
}

// issues runs the linter in dir and returns its syncio findings as sorted
// "file:line: rule" strings, failing on findings without a rule ID, and the
// related-information issues as sorted "file:line" strings.
func (l *linter) issues(t *testing.T, dir string) (found, related []string, code int) {
	t.Helper()
	stdout, stderr, code := l.run(t, dir, "run", "--output.json.path", "stdout", "--show-stats=false", "./...")
	var report struct{ Issues []issue }
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("exit %d, output is not golangci-lint JSON: %v\nstdout: %s\nstderr: %s", code, err, stdout, stderr)
	}
	for _, is := range report.Issues {
		if is.FromLinter != "syncio" {
			t.Errorf("unexpected linter %q: %s", is.FromLinter, is.Text)
			continue
		}
		if strings.HasPrefix(is.Text, relatedPrefix) {
			related = append(related, fmt.Sprintf("%s:%d", filepath.Base(is.Pos.Filename), is.Pos.Line))
			continue
		}
		m := ruleSuffix.FindStringSubmatch(is.Text)
		if m == nil {
			t.Errorf("%s:%d: finding without a rule ID: %s", is.Pos.Filename, is.Pos.Line, is.Text)
			continue
		}
		found = append(found, fmt.Sprintf("%s:%d: %s", filepath.Base(is.Pos.Filename), is.Pos.Line, m[1]))
	}
	slices.Sort(found)
	slices.Sort(related)
	return found, related, code
}

// markers returns the "// finding: ID" lines of a file as sorted
// "file:line: ID" strings and the "// related" lines as "file:line".
func markers(t *testing.T, path string) (findings, related []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if m := findingMarker.FindStringSubmatch(sc.Text()); m != nil {
			findings = append(findings, fmt.Sprintf("%s:%d: %s", filepath.Base(path), line, m[1]))
		}
		if relatedMarker.MatchString(sc.Text()) {
			related = append(related, fmt.Sprintf("%s:%d", filepath.Base(path), line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(findings)
	slices.Sort(related)
	return findings, related
}

// findingAt returns the marker string ("file:line: ID") of the marked line
// of path that contains substr.
func findingAt(t *testing.T, path, substr string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		if m := findingMarker.FindStringSubmatch(line); m != nil && strings.Contains(line, substr) {
			return fmt.Sprintf("%s:%d: %s", filepath.Base(path), i+1, m[1])
		}
	}
	t.Fatalf("%s: no marked line contains %q", path, substr)
	return ""
}

// copySvc copies testdata/svc (a module of its own) to a temporary
// directory, without the golden files, and installs testdata/cfgName as its
// .golangci.yml, so that runs and fixes stay hermetic.
func copySvc(t *testing.T, cfgName string) string {
	t.Helper()
	return copyModule(t, "svc", cfgName)
}

// copyModule copies testdata/NAME (without .golden files) and
// testdata/CFGNAME as its .golangci.yml into a new directory.
func copyModule(t *testing.T, name, cfgName string) string {
	t.Helper()
	return copyDir(t, filepath.Join("testdata", name), cfgName)
}

// copyDir copies the module at src (without .golden files) and
// testdata/CFGNAME as its .golangci.yml into a new directory.
func copyDir(t *testing.T, src, cfgName string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".golden") {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err == nil {
		err = copyFile(filepath.Join("testdata", cfgName), filepath.Join(dst, ".golangci.yml"))
	}
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
	return dst
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
