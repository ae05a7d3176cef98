package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/syncio/syncio/docs/docblock"
)

// manyFindings is a service with more findings than golangci-lint shows by
// default: n handlers with the same ctx-less call (one text, one rule), and
// one handler whose call is SIO001 and SIO003 on one line.
func manyFindings(n int) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"net/http\"\n\t\"sync\"\n\t\"time\"\n)\n\nvar mu sync.Mutex\n\n")
	for i := range n {
		fmt.Fprintf(&b, "func h%d(w http.ResponseWriter, r *http.Request) {\n\tresp, err := http.Get(\"http://example.com/\")\n\tif err == nil {\n\t\tresp.Body.Close()\n\t}\n}\n\n", i)
	}
	b.WriteString("func locked(w http.ResponseWriter, r *http.Request) {\n\tmu.Lock()\n\tdefer mu.Unlock()\n\tresp, err := http.Get(\"http://example.com/\")\n\tif err == nil {\n\t\tresp.Body.Close()\n\t}\n}\n\n")
	b.WriteString("func main() {\n\thttp.HandleFunc(\"/locked\", locked)\n")
	for i := range n {
		fmt.Fprintf(&b, "\thttp.HandleFunc(\"/%d\", h%d)\n", i, i)
	}
	// A server with both timeouts: the count is the handlers' (SIO008 would
	// add the package-level ListenAndServe's).
	b.WriteString("\tsrv := &http.Server{Addr: \"127.0.0.1:8080\", ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}\n\t_ = srv.ListenAndServe()\n}\n")
	return b.String()
}

// TestRecipeShowsEverything merges the docs/ci.md configuration snippet
// into a user's configuration and runs golangci-lint on a module with 61
// findings of one text and a line with two rules: it must report as many
// syncio findings as the standalone command. Without the snippet's issues
// block, golangci-lint's defaults (50 per linter, 3 per text, one per
// line) must show fewer, or the test proves nothing.
func TestRecipeShowsEverything(t *testing.T) {
	docBytes, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := docblock.Find(string(docBytes), "golangci-config")
	if err != nil {
		t.Fatalf("docs/ci.md: %v", err)
	}
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "go.mod"), "module example.com/many\n\ngo 1.26\n")
	mustWrite(t, filepath.Join(dir, "main.go"), manyFindings(60))

	syncio := buildSyncio(t)
	cmd := exec.Command(syncio, "-group=false", "./...") // one per request path, as golangci-lint
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	out, _ := cmd.CombinedOutput()
	standalone := len(regexp.MustCompile(`(?m)^main\.go:\d+:\d+: [^\t].*\(SIO00[13]\)$`).FindAll(out, -1))
	if standalone != 62 {
		t.Fatalf("standalone reports %d findings, want 62 (60 + SIO001 and SIO003 on one line):\n%s", standalone, out)
	}

	count := func(snippet string) (int, map[string]int) {
		cfg, err := mergeYAML(userConfig, snippet)
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, filepath.Join(dir, ".golangci.yml"), cfg)
		issues, code := newLinter(t).report(t, dir)
		if code != 1 {
			t.Errorf("golangci-lint exit %d, want 1", code)
		}
		n, rules := 0, map[string]int{}
		for _, is := range issues {
			if m := ruleSuffix.FindStringSubmatch(is.Text); is.FromLinter == "syncio" && m != nil {
				n++
				rules[m[1]]++
			}
		}
		return n, rules
	}
	n, rules := count(b.Body)
	if n != standalone || rules["SIO003"] != 1 {
		t.Errorf("golangci-lint with the docs/ci.md snippet reports %d syncio findings (%v), the standalone %d", n, rules, standalone)
	}
	noIssues := regexp.MustCompile(`(?ms)^issues:\n(?:[ #].*\n)+`).ReplaceAllString(b.Body, "")
	if noIssues == b.Body {
		t.Fatalf("the docs/ci.md snippet has no issues block:\n%s", b.Body)
	}
	n0, rules0 := count(noIssues)
	if n0 >= standalone {
		t.Errorf("without the issues block golangci-lint still reports %d of %d: the test does not show what the block does", n0, standalone)
	}
	t.Logf("golangci-lint: %d of %d syncio findings with the snippet (%v), %d without its issues block (%v)", n, standalone, rules, n0, rules0)
}

// buildSyncio builds the standalone command into a temporary directory.
func buildSyncio(t *testing.T) string {
	t.Helper()
	syncio := filepath.Join(t.TempDir(), "syncio")
	build := exec.Command("go", "build", "-o", syncio, "./cmd/syncio")
	build.Dir = filepath.Join("..", "..")
	build.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building syncio: %v\n%s", err, out)
	}
	return syncio
}
