package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/docs/docblock"
)

// govetMain has an issue of another linter (govet's printf check).
const govetMain = `package main

import "fmt"

func greet() { fmt.Printf("%d\n", "x") }
`

// newHandler is a second handler with a finding, added on a branch.
const newHandler = `package main

import (
	"net/http"
	"time"
)

func slow(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Second)
}
`

// TestWorkflowRunStep runs the run step of docs/ci/golangci.yml in a
// service set up with the docs/ci.md configuration snippet, with the
// already built binary in bin/: issues fail it; SYNCIO_REPORT_ONLY keeps
// syncio's issues from failing it but not another linter's; and
// SYNCIO_NEW_ONLY on a pull request shows only the issues the branch
// added.
func TestWorkflowRunStep(t *testing.T) {
	l := newLinter(t)
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeService(t, dir, string(doc), l)
	step := workflowSteps(t, filepath.Join("..", "..", "docs", "ci", "golangci.yml"))["Run golangci-lint"]
	if step == "" {
		t.Fatal(`docs/ci/golangci.yml has no step "Run golangci-lint"`)
	}
	cache := t.TempDir()
	sh := func(script string, env ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-eo", "pipefail", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), l.env...),
			"GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
			"GOLANGCI_LINT_CACHE="+cache, "TMPDIR="+t.TempDir(),
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return string(out), 0
	}
	const syncioIssue = "main.go:10:15: net/http.Get blocks"
	for _, c := range []struct {
		name, reportOnly string
		want             int
		wantOut          []string
	}{
		{"gate", "", 1, []string{syncioIssue}},
		{"report-only, syncio's issues alone", "true", 0, []string{syncioIssue}},
	} {
		out, code := sh(step, "REPORT_ONLY="+c.reportOnly, "NEW_ONLY=", "NEW_FROM=origin/")
		if code != c.want {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, c.want, out)
		}
		for _, w := range c.wantOut {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
	}

	// MODULE names the go.mod's directory in the repository: the issues'
	// paths, in the SARIF code scanning reads too, start there. At the
	// root (MODULE=.), they stay as they are.
	for _, c := range []struct{ module, want string }{{"backend", "backend/main.go"}, {".", "main.go"}} {
		out, code := sh(step, "REPORT_ONLY=", "NEW_ONLY=", "NEW_FROM=origin/", "MODULE="+c.module)
		sarif, err := os.ReadFile(filepath.Join(dir, "golangci.sarif"))
		if code != 1 || err != nil || !strings.Contains(out, c.want+":10:15: net/http.Get blocks") ||
			!regexp.MustCompile(`"uri":\s*"`+regexp.QuoteMeta(c.want)+`"`).Match(sarif) {
			t.Errorf("MODULE=%s: exit %d (%v), want 1 and %s in the output and the SARIF\n%s\n%s", c.module, code, err, c.want, out, sarif)
		}
	}

	mustWrite(t, filepath.Join(dir, "greet.go"), govetMain)
	out, code := sh(step, "REPORT_ONLY=true", "NEW_ONLY=", "NEW_FROM=origin/")
	if code != 1 || !strings.Contains(out, "1 issues from linters other than syncio") || !strings.Contains(out, "(govet)") {
		t.Errorf("report-only with a govet issue: exit %d, want 1 naming the other linter's issue\n%s", code, out)
	}
	if err := os.Remove(filepath.Join(dir, "greet.go")); err != nil {
		t.Fatal(err)
	}

	// A developer's make lint, with the docs/ci.md rule: the binary is up
	// to date (its sources are older), so make only runs it.
	mk, err := docblock.Find(string(doc), "make-lint")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "Makefile"), mk.Body)
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range []string{"go.mod", "go.sum", "main.go"} {
		p := filepath.Join(dir, "tools", "golangci", f)
		mustWrite(t, p, "")
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	out, code = sh("make lint")
	if code == 0 || !strings.Contains(out, syncioIssue) || strings.Contains(out, "go build") {
		t.Errorf("make lint: exit %d, want a failure with the finding and no rebuild\n%s", code, out)
	}
	if err := os.RemoveAll(filepath.Join(dir, "tools")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "Makefile")); err != nil {
		t.Fatal(err)
	}

	// A pull request that adds one handler with a finding: with
	// SYNCIO_NEW_ONLY only that one is shown.
	if out, code := sh("printf 'bin/\\n*.sarif\\n*.json\\n' > .gitignore && git init -q -b main && git add -A && git commit -qm base && git checkout -qb feature"); code != 0 {
		t.Fatalf("git: %s", out)
	}
	mustWrite(t, filepath.Join(dir, "slow.go"), newHandler)
	if out, code := sh("git add -A && git commit -qm 'add a handler'"); code != 0 {
		t.Fatalf("git: %s", out)
	}
	out, code = sh(step, "REPORT_ONLY=", "NEW_ONLY=true", "NEW_FROM=main")
	if code != 1 || !strings.Contains(out, "slow.go:9:2: time.Sleep") || strings.Contains(out, syncioIssue) {
		t.Errorf("new only: exit %d, want 1 with the new finding in slow.go and not the old one in main.go\n%s", code, out)
	}
}

// writeService writes the service module the workflow tests lint into
// dir: one handler (userMain) on a Go older than syncio's, the user's
// .golangci.yml with docs/ci.md's snippet merged in, and the built binary
// in bin/, where the workflow's run step looks for it.
func writeService(t *testing.T, dir, doc string, l *linter) {
	t.Helper()
	snippet, err := docblock.Find(doc, "golangci-config")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := mergeYAML(userConfig, snippet.Body)
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "go.mod"), "module example.com/yourservice\n\ngo 1.25\n")
	mustWrite(t, filepath.Join(dir, "main.go"), userMain)
	mustWrite(t, filepath.Join(dir, ".golangci.yml"), cfg)
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(l.path, filepath.Join(dir, "bin", "golangci-lint")); err != nil {
		t.Fatal(err)
	}
}
