package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/syncio/syncio/docs/docblock"
)

// TestMigratedWorkflow follows docs/ci.md's migration recipe for the stock
// golangci-lint-action step it shows (a module in backend/, extra args):
// docs/ci/golangci.yml whole, with MODULE and the run step's flags carried
// over. It checks that those are the only changes the recipe needs (every
// other line, the syncio checkout, the job's env, fetch-depth, the SARIF
// permissions and upload, comes with the file), that actionlint accepts
// the result, and that its run step, with the args, lints the module in
// backend/ of a repository and names the files from the repository's root.
func TestMigratedWorkflow(t *testing.T) {
	l := newLinter(t)
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	stock, err := docblock.Find(string(doc), "golangci-stock-step")
	if err != nil {
		t.Fatal(err)
	}
	var steps []struct {
		Uses string            `yaml:"uses"`
		With map[string]string `yaml:"with"`
	}
	if err := yaml.Unmarshal([]byte(stock.Body), &steps); err != nil || len(steps) != 1 {
		t.Fatalf("docs/ci.md block golangci-stock-step: want one step, got %d (%v)", len(steps), err)
	}
	with := steps[0].With
	module, args := with["working-directory"], with["args"]
	if module == "" || args == "" || !strings.HasPrefix(steps[0].Uses, "golangci/golangci-lint-action@") {
		t.Fatalf("the stock step should be golangci-lint-action with working-directory and args: %+v", steps[0])
	}

	wfPath := filepath.Join(root, "docs", "ci", "golangci.yml")
	orig, err := os.ReadFile(wfPath)
	if err != nil {
		t.Fatal(err)
	}
	migrated := string(orig)
	for _, r := range []struct{ old, new string }{
		{"  MODULE: .\n", "  MODULE: " + module + "\n"},
		{"          flags=(--output.text.path=stdout --output.sarif.path=golangci.sarif --output.json.path=golangci.json)\n",
			"          flags=(--output.text.path=stdout --output.sarif.path=golangci.sarif --output.json.path=golangci.json)\n          flags+=(" + args + ")\n"},
	} {
		if strings.Count(migrated, r.old) != 1 {
			t.Fatalf("docs/ci/golangci.yml has %d lines %q, want one for the recipe to change", strings.Count(migrated, r.old), r.old)
		}
		migrated = strings.Replace(migrated, r.old, r.new, 1)
	}
	if d := lineDiff(string(orig), migrated); d != 2 {
		t.Errorf("the migration changed %d lines, want 2 (MODULE and the args)", d)
	}

	repo := t.TempDir()
	wf := filepath.Join(repo, ".github", "workflows", "golangci.yml")
	mustWrite(t, wf, migrated)
	lint := exec.Command("go", "run", "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12", wf)
	lint.Env = append(os.Environ(), "GOWORK=off")
	if out, err := lint.CombinedOutput(); err != nil {
		t.Errorf("actionlint on the migrated workflow: %v\n%s", err, out)
	}

	// The service, in backend/ of a git repository.
	dir := filepath.Join(repo, module)
	writeService(t, dir, string(doc), l)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	run := workflowSteps(t, wf)["Run golangci-lint"]
	cmd := exec.Command("bash", "-eo", "pipefail", "-c", run)
	cmd.Dir = dir // the job's defaults: working-directory: MODULE
	cmd.Env = append(append(os.Environ(), l.env...), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
		"GOLANGCI_LINT_CACHE="+t.TempDir(), "MODULE="+module, "REPORT_ONLY=", "NEW_ONLY=", "NEW_FROM=origin/")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), module+"/main.go:10:15: net/http.Get blocks") {
		t.Fatalf("the migrated run step: %v, want exit 1 with %s/main.go's issue\n%s", err, module, out)
	}
	sarif, err := os.ReadFile(filepath.Join(dir, "golangci.sarif"))
	if err != nil || !regexp.MustCompile(`"uri":\s*"`+regexp.QuoteMeta(module)+`/main.go"`).Match(sarif) {
		t.Errorf("golangci.sarif should name %s/main.go (%v)\n%s", module, err, sarif)
	}
}

// lineDiff counts the lines of b that are not in a, as a multiset.
func lineDiff(a, b string) int {
	have := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		have[l]++
	}
	n := 0
	for _, l := range strings.Split(b, "\n") {
		if have[l] > 0 {
			have[l]--
		} else {
			n++
		}
	}
	return n
}
