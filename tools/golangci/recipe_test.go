package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/syncio/syncio/docs/docblock"
	"github.com/syncio/syncio/docs/workflow"
)

// versionEnv selects the golangci-lint version the recipe is built with,
// e.g. v2.12.2 for the oldest supported one (make test-lint-oldest). Empty
// means the version written in docs/ci.md.
const versionEnv = "SYNCIO_GOLANGCI_VERSION"

// docVersion is the golangci-lint requirement as docs/ci.md writes it.
var docVersion = regexp.MustCompile(`github\.com/golangci/golangci-lint/v2@(v2\.\d+\.\d+)`)

// userConfig is the .golangci.yml of a user who already runs golangci-lint
// with a linter set of their own; the recipe's snippet is merged into it.
const userConfig = `version: "2"
linters:
  default: none
  enable:
    - govet
`

// userMain has a ctx-less http.Get (SIO001), file I/O that only the opt-in
// SIO006 reports, and an unchecked Close that errcheck (not enabled by the
// user) would report.
const userMain = `package main

import (
	"net/http"
	"os"
)

func handler(w http.ResponseWriter, r *http.Request) {
	_, _ = os.ReadFile("config.json")
	resp, err := http.Get("http://example.com/")
	if err != nil {
		return
	}
	resp.Body.Close()
}

func main() {
	http.HandleFunc("/", handler)
	_ = http.ListenAndServe(":8080", nil)
}
`

// blindRoutes registers handlers that are kept in struct fields, which
// syncio cannot follow, and has no request root of its own.
const blindRoutes = `package routes

import "net/http"

type Handlers struct{ List, Show http.HandlerFunc }

func Register(mux *http.ServeMux, h Handlers) {
	mux.HandleFunc("/list", h.List)
	mux.Handle("/show", h.Show)
}
`

// TestDocRecipe builds the custom binary in a throwaway service module by
// running the golangci-lint blocks of docs/ci.md verbatim, with the
// documented .golangci.yml snippet merged into an existing configuration,
// and checks what the doc promises: exit code 1, the syncio finding and no
// other new issue, SIO006 still off, SARIF level "warning", and an SIO000
// issue for a package whose routes lead to no root (strict-roots).
func TestDocRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds golangci-lint")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	docBytes, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(docBytes)
	block := func(name, lang string) string {
		t.Helper()
		b, err := docblock.Find(doc, name)
		if err != nil {
			t.Fatalf("docs/ci.md: %v", err)
		}
		if b.Lang != lang {
			t.Fatalf("docs/ci.md block %s is %q, want %q", name, b.Lang, lang)
		}
		return b.Body
	}

	dir := filepath.Join(t.TempDir(), "yourservice")
	// A service on an older Go than syncio needs (see wantWorkflowGo).
	mustWrite(t, filepath.Join(dir, "go.mod"), "module example.com/yourservice\n\ngo 1.25\n")
	mustWrite(t, filepath.Join(dir, "main.go"), userMain)
	cfg, err := mergeYAML(userConfig, block("golangci-config", "yaml"))
	if err != nil {
		t.Fatalf("merging the docs/ci.md snippet into a user's .golangci.yml: %v", err)
	}
	mustWrite(t, filepath.Join(dir, ".golangci.yml"), cfg)

	env := append(os.Environ(),
		"GOWORK=off", "GOTOOLCHAIN=local",
		"GOLANGCI_LINT_CACHE="+t.TempDir(), "TMPDIR="+t.TempDir(),
		// git clone https://github.com/syncio/syncio.git clones this
		// repository's committed HEAD instead (there is no network).
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=url."+root+".insteadOf",
		"GIT_CONFIG_VALUE_0=https://github.com/syncio/syncio.git",
	)
	sh := func(name, script string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-eo", "pipefail", "-c", script)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatalf("block %s: %v\n%s", name, err, out)
		}
		return string(out), 0
	}
	mustRun := func(name, script string) {
		t.Helper()
		if out, code := sh(name, script); code != 0 {
			t.Fatalf("block %s: exit %d\n%s", name, code, out)
		}
	}

	mustRun("tools-clone", block("tools-clone", "sh"))
	module := block("golangci-module", "sh")
	if v := os.Getenv(versionEnv); v != "" {
		if !docVersion.MatchString(module) {
			t.Fatalf("block golangci-module names no golangci-lint version:\n%s", module)
		}
		// A user who pins another version later: the module as the docs
		// give it, tidied, then the block again with v. Minimal version
		// selection would keep the first tidy's newer linters, which do
		// not build with v's golangci-lint, unless the block starts the
		// module from scratch.
		mustRun("golangci-module", module)
		mustWrite(t, filepath.Join(dir, "tools", "golangci", "main.go"), block("golangci-main", "go"))
		mustRun("tidy", "cd tools/golangci && go mod tidy")
		module = docVersion.ReplaceAllString(module, "github.com/golangci/golangci-lint/v2@"+v)
	}
	mustRun("golangci-module", module)
	wantWorkflowGo(t, root, dir)
	mustWrite(t, filepath.Join(dir, "tools", "golangci", "main.go"), block("golangci-main", "go"))

	out, code := sh("golangci-build", block("golangci-build", "sh"))
	if code != 1 {
		t.Fatalf("block golangci-build: exit %d, want 1 (issues found)\n%s", code, out)
	}
	if want := regexp.MustCompile(`(?m)^main\.go:10:15: net/http\.Get blocks.*\(SIO001\) \(syncio\)$`); !want.MatchString(out) {
		t.Errorf("golangci-build output lacks the SIO001 finding:\n%s", out)
	}
	// What docs/ci.md says `golangci-lint version` prints for the recipe.
	out, code = sh("version", "bin/golangci-lint version")
	if m := versionLine.FindStringSubmatch(out); code != 0 || m == nil || m[1] != runtime.Version() ||
		!strings.Contains(out, " and syncio => ../syncio on (unknown)") {
		t.Errorf("bin/golangci-lint version: exit %d, %q; want it to name %s, golangci-lint and syncio => ../syncio", code, out, runtime.Version())
	} else if v := os.Getenv(versionEnv); v != "" && m[2] != v {
		t.Errorf("bin/golangci-lint version names golangci-lint %s, want %s", m[2], v)
	}
	if v := os.Getenv(versionEnv); v != "" {
		mod, err := os.ReadFile(filepath.Join(dir, "tools", "golangci", "go.mod"))
		if err != nil || !strings.Contains(string(mod), "github.com/golangci/golangci-lint/v2 "+v) {
			t.Errorf("tools/golangci/go.mod does not require golangci-lint %s (err %v):\n%s", v, err, mod)
		}
	}

	sarif := filepath.Join(t.TempDir(), "golangci.sarif")
	out, code = sh("run", "bin/golangci-lint run --output.json.path=stdout --show-stats=false --output.sarif.path="+sarif+" ./...")
	if code != 1 {
		t.Fatalf("run: exit %d, want 1\n%s", code, out)
	}
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("not golangci-lint JSON: %v\n%s", err, out)
	}
	// The service's two findings: its handler's http.Get (SIO001) and its
	// http.ListenAndServe (SIO008).
	var rules []string
	for _, is := range report.Issues {
		if m := ruleSuffix.FindStringSubmatch(is.Text); is.FromLinter == "syncio" && m != nil {
			rules = append(rules, m[1])
		} else {
			rules = append(rules, is.FromLinter+": "+is.Text)
		}
	}
	slices.Sort(rules)
	if !slices.Equal(rules, []string{"SIO001", "SIO008"}) {
		t.Errorf("want exactly the SIO001 and SIO008 issues (no errcheck, no SIO006, no related information), got %+v", report.Issues)
	}
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
				Level  string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("SARIF: %v\n%s", err, data)
	}
	n := 0
	for _, r := range log.Runs {
		for _, res := range r.Results {
			n++
			if res.Level != "warning" {
				t.Errorf("SARIF result %s has level %q, want warning (as the standalone command)", res.RuleID, res.Level)
			}
		}
	}
	if n != 2 {
		t.Errorf("SARIF has %d results, want 2:\n%s", n, data)
	}

	// strict-roots, on in the snippet: a package whose routes syncio cannot
	// follow (handlers kept in struct fields) is an SIO000 issue, where
	// golangci-lint would otherwise say nothing of it.
	mustWrite(t, filepath.Join(dir, "routes", "routes.go"), blindRoutes)
	out, code = sh("run", "bin/golangci-lint run --output.json.path=stdout --show-stats=false ./routes")
	report.Issues = nil
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("not golangci-lint JSON (exit %d): %v\n%s", code, err, out)
	}
	if code != 1 || len(report.Issues) != 1 || !strings.HasSuffix(report.Issues[0].Text, "(SIO000)") {
		t.Errorf("a package with routes and no root: exit %d, issues %+v; want 1 and one SIO000 issue", code, report.Issues)
	}
	if err := os.RemoveAll(filepath.Join(dir, "routes")); err != nil {
		t.Fatal(err)
	}

	// The example workflow's build and run steps, in the same service:
	// issues fail the run step with 1 and still write SARIF, and
	// SYNCIO_REPORT_ONLY=true ("report, don't block") turns that into 0.
	steps := workflowSteps(t, filepath.Join(root, "docs", "ci", "golangci.yml"))
	wf := func(name string) string {
		t.Helper()
		s, ok := steps[name]
		if !ok {
			t.Fatalf("docs/ci/golangci.yml has no step %q with a run script", name)
		}
		return s
	}
	mustRun("workflow build step", wf("Build the custom golangci-lint (cache miss only)"))
	for _, c := range []struct {
		reportOnly string
		want       int
	}{{"", 1}, {"true", 0}} {
		_ = os.Remove(filepath.Join(dir, "golangci.sarif"))
		out, code := sh("workflow run step", "REPORT_ONLY="+c.reportOnly+"\n"+wf("Run golangci-lint"))
		if code != c.want || !strings.Contains(out, "(SIO001) (syncio)") {
			t.Errorf("workflow run step with REPORT_ONLY=%q: exit %d, want %d with the finding\n%s", c.reportOnly, code, c.want, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "golangci.sarif")); err != nil {
			t.Errorf("workflow run step with REPORT_ONLY=%q wrote no SARIF: %v", c.reportOnly, err)
		}
	}
}

// workflowSteps returns the run scripts of a workflow's steps by name.
func workflowSteps(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := workflow.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string]string{}
	for _, s := range f.Steps() {
		if s.Run != "" {
			steps[s.Name] = s.Run
		}
	}
	return steps
}

// mergeYAML merges snippet into base as a user would by hand: mappings
// key by key, lists appended, and a scalar in both is an error, because
// the snippet must only add to a configuration, never change it.
func mergeYAML(base, snippet string) (string, error) {
	var b, s map[string]any
	if err := yaml.Unmarshal([]byte(base), &b); err != nil {
		return "", err
	}
	if err := yaml.Unmarshal([]byte(snippet), &s); err != nil {
		return "", err
	}
	merged, err := merge(b, s, "")
	if err != nil {
		return "", err
	}
	out, err := yaml.Marshal(merged)
	return string(out), err
}

func merge(base, add any, path string) (any, error) {
	switch a := add.(type) {
	case map[string]any:
		b, ok := base.(map[string]any)
		if base == nil {
			b, ok = map[string]any{}, true
		}
		if !ok {
			return nil, errors.New(path + ": the snippet has a mapping where the configuration has none")
		}
		for k, v := range a {
			m, err := merge(b[k], v, path+"."+k)
			if err != nil {
				return nil, err
			}
			b[k] = m
		}
		return b, nil
	case []any:
		b, ok := base.([]any)
		if base != nil && !ok {
			return nil, errors.New(path + ": the snippet has a list where the configuration has none")
		}
		return append(b, a...), nil
	default:
		if base != nil {
			return nil, errors.New(path + ": the snippet would change an existing setting")
		}
		return add, nil
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantWorkflowGo checks that docs/ci/golangci.yml sets up a Go that can
// build the custom binary, read in the service svc the recipe set up,
// whatever the service's own go.mod says (an older Go here).
func wantWorkflowGo(t *testing.T, root, svc string) {
	t.Helper()
	need, err := workflow.GoDirective(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := workflow.Read(filepath.Join(root, "docs", "ci", "golangci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range workflow.SetupGoProblems(f, svc, need) {
		t.Errorf("docs/ci/golangci.yml: %s", p)
	}
}
