package main

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/docs/docblock"
	"github.com/syncio/syncio/docs/workflow"
)

// The adoption tests play a new user: a service module outside this
// repository, set up by running the shell blocks of docs/ci.md verbatim
// (found by their <!-- block: NAME --> markers), each checked for the
// finding and the exit code the doc promises.

// svcMain is the user's service: one handler with a ctx-less http.Get,
// file I/O that only the opt-in SIO006 would report, and the package-level
// http.ListenAndServe, which SIO008 reports (a second finding, in the
// baseline's count).
const svcMain = `package main

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

// svcFinding is what every route must print for svcMain.
var svcFinding = regexp.MustCompile(`(?m)main\.go:10:15: net/http\.Get blocks without the request context; .*\(SIO001\)$`)

// syncioURL is the clone URL the docs use; the tests redirect it to this
// repository with git's url.<base>.insteadOf, so the blocks stay verbatim.
const syncioURL = "https://github.com/syncio/syncio.git"

// adopter runs doc blocks for one throwaway service.
type adopter struct {
	t    *testing.T
	root string // this repository
	dir  string // the service module
	env  []string
	doc  string
}

func newAdopter(t *testing.T) *adopter {
	t.Helper()
	return newAdopterAt(t, "yourservice")
}

// newAdopterAt is newAdopter with the service module at rel under the
// temporary directory, e.g. "repo/backend" for a module in a subdirectory.
func newAdopterAt(t *testing.T, rel string) *adopter {
	t.Helper()
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	a := &adopter{t: t, root: root, dir: filepath.Join(tmp, filepath.FromSlash(rel)), doc: string(doc)}
	// An older Go than syncio's own go.mod asks for: syncio analyses the
	// service's code, but must be built with the Go it needs.
	writeFile(t, filepath.Join(a.dir, "go.mod"), "module example.com/yourservice\n\ngo 1.25\n")
	writeFile(t, filepath.Join(a.dir, "main.go"), svcMain)
	gobin := filepath.Join(tmp, "gobin")
	a.env = append(os.Environ(),
		"GOWORK=off", "GOTOOLCHAIN=local",
		"GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"),
		// git clone https://github.com/syncio/syncio.git, and the go
		// command's own git fetch of https://github.com/syncio/syncio,
		// get this repository's committed HEAD instead (there is no
		// network); git picks the longest matching insteadOf.
		"GIT_CONFIG_COUNT=2",
		"GIT_CONFIG_KEY_0=url."+root+".insteadOf",
		"GIT_CONFIG_VALUE_0="+syncioURL,
		"GIT_CONFIG_KEY_1=url."+root+".insteadOf",
		"GIT_CONFIG_VALUE_1="+strings.TrimSuffix(syncioURL, ".git"),
	)
	return a
}

// run runs the named block of docs/ci.md in the service directory with
// bash -eo pipefail, the shell GitHub Actions gives run steps, and returns
// its combined output and exit code.
func (a *adopter) run(name string, extraEnv ...string) (string, int) {
	a.t.Helper()
	b, err := docblock.Find(a.doc, name)
	if err != nil {
		a.t.Fatalf("docs/ci.md: %v", err)
	}
	if b.Lang != "sh" {
		a.t.Fatalf("docs/ci.md block %s is %q, want sh", name, b.Lang)
	}
	ctx, cancel := context.WithTimeout(a.t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-eo", "pipefail", "-c", b.Body)
	cmd.Dir = a.dir
	cmd.Env = append(append([]string{}, a.env...), extraEnv...)
	out, err := cmd.CombinedOutput()
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		a.t.Fatalf("block %s: %v\n%s", name, err, out)
	}
	return string(out), code
}

// expect runs a block and checks its exit code and, for a non-zero code
// other than a setup failure, the finding.
func (a *adopter) expect(name string, wantCode int, wantFinding bool) string {
	a.t.Helper()
	out, code := a.run(name)
	if code != wantCode {
		a.t.Fatalf("block %s: exit %d, want %d\n%s", name, code, wantCode, out)
	}
	if got := svcFinding.MatchString(out); got != wantFinding {
		a.t.Errorf("block %s: finding printed = %v, want %v\n%s", name, got, wantFinding, out)
	}
	if strings.Contains(out, "(SIO006)") {
		a.t.Errorf("block %s reports the opt-in SIO006:\n%s", name, out)
	}
	return out
}

// git runs git in the service directory and returns its output.
func (a *adopter) git(args ...string) string {
	a.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = a.dir, a.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		a.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// wantToolsMod checks that tools/go.mod pins syncio as the doc says.
func (a *adopter) wantToolsMod(lines ...string) {
	a.t.Helper()
	b, err := os.ReadFile(filepath.Join(a.dir, "tools", "go.mod"))
	if err != nil {
		a.t.Fatal(err)
	}
	for _, l := range lines {
		if !strings.Contains(string(b), l) {
			a.t.Errorf("tools/go.mod lacks %q:\n%s", l, b)
		}
	}
}

func TestAdoptionToolsModuleFromClone(t *testing.T) {
	a := newAdopter(t)
	// The service's own .gitignore, whose last line has no newline (as
	// dhax/go-base's): an "echo /x/ >> .gitignore" would glue its pattern to
	// that line, and neither would match any more.
	writeFile(t, filepath.Join(a.dir, ".gitignore"), "*.log")
	writeFile(t, filepath.Join(a.dir, "debug.log"), "")
	a.expect("tools-clone", 0, false)
	a.wantToolsMod("github.com/syncio/syncio v0.0.0-00010101000000-000000000000", "github.com/syncio/syncio => ./syncio")
	a.git("init", "-q")
	a.expect("gitignore-bin", 0, false)
	a.expect("tools-run", 3, true)
	a.expect("vet-tools", 1, true)
	// What the blocks built or cloned stays out of the user's commits.
	for _, l := range strings.Split(a.git("status", "--porcelain", "--untracked-files=all"), "\n") {
		if strings.Contains(l, "bin/") || strings.Contains(l, "tools/syncio/") {
			t.Errorf("git status shows %q: the docs leave it out of .gitignore", l)
		}
		if strings.Contains(l, "debug.log") {
			t.Errorf("git status shows %q: the docs' lines broke the service's own .gitignore", l)
		}
	}
	if b, err := os.ReadFile(filepath.Join(a.dir, "go.mod")); err != nil || strings.Contains(string(b), "syncio") {
		t.Errorf("the service's go.mod changed (err %v):\n%s", err, b)
	}
	// Without the binary, the documented vet command must fail, not run
	// plain vet and pass.
	if err := os.RemoveAll(filepath.Join(a.dir, "bin")); err != nil {
		t.Fatal(err)
	}
	if out, code := a.run("vet-tools"); code == 0 || !strings.Contains(out, "no such file") {
		t.Errorf("vet-tools without bin/syncio: exit %d, want a failure naming the missing file\n%s", code, out)
	}
}

func TestAdoptionToolsModulePublished(t *testing.T) {
	a := newAdopter(t)
	proxy := publishSyncio(t, a.root, "v0.1.0")
	// The stand-in proxy serves this repository as v0.1.0; every other
	// module comes from the configured proxies or the module cache. go get
	// also asks whether github.com/syncio/syncio/cmd/syncio is a module of
	// its own, and a proxy may answer that with an error rather than "not
	// found" (403 for an unpublished path), so the list falls through on
	// any error ("|") and ends in "off", which counts as "not found".
	// "direct" is dropped: there is no network for git.
	list := []string{"file://" + filepath.ToSlash(proxy)}
	for _, p := range strings.FieldsFunc(goEnv(t, "GOPROXY"), func(r rune) bool { return r == ',' || r == '|' }) {
		if p != "direct" && p != "off" {
			list = append(list, p)
		}
	}
	a.env = append(a.env,
		"GOPROXY="+strings.Join(append(list, "off"), "|"),
		"GONOSUMDB=github.com/syncio/syncio",
		"GOPRIVATE=", "GONOPROXY=",
	)
	a.expect("tools-published", 0, false)
	a.wantToolsMod("github.com/syncio/syncio v0.1.0", "tool github.com/syncio/syncio/cmd/syncio")
	a.expect("tools-run", 3, true)
	a.expect("tools-published-run", 3, true)
	a.expect("vet-tools", 1, true)
}

// TestAdoptionToolsModulePrivate fetches syncio with git, as for a private
// repository, through GOPRIVATE (the block exports it).
func TestAdoptionToolsModulePrivate(t *testing.T) {
	a := newAdopter(t)
	a.expect("tools-private", 0, false)
	a.wantToolsMod("github.com/syncio/syncio v0.0.0-", "tool github.com/syncio/syncio/cmd/syncio")
	a.expect("tools-run", 3, true)
}

func TestAdoptionGoInstallFromClone(t *testing.T) {
	a := newAdopter(t)
	a.expect("install-clone", 3, true)
	a.expect("vet-path", 1, true)
	// With syncio nowhere on PATH (only the go command's directory), the
	// documented vet command fails loudly.
	goDir := filepath.Dir(goBinary(t))
	out, code := a.run("vet-path", "PATH="+goDir+string(os.PathListSeparator)+"/usr/bin"+string(os.PathListSeparator)+"/bin")
	if code == 0 || !strings.Contains(out, "syncio-not-installed") {
		t.Errorf("vet-path without syncio on PATH: exit %d, want a failure naming syncio-not-installed\n%s", code, out)
	}
}

// TestNoSilentVettool: a documented -vettool value must not be able to
// expand to nothing, because "go vet -vettool= ./..." runs plain vet and
// passes. "$(command -v syncio)" and a bare "$VAR" can; "$PWD/bin/syncio"
// and "$(... || echo /syncio-not-installed)" cannot.
func TestNoSilentVettool(t *testing.T) {
	root := repoRoot(t)
	vettool := regexp.MustCompile(`-vettool[= ]"?(\$\([^)]*\)|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?)(/?)`)
	var files []string
	files = append(files, filepath.Join(root, "README.md"))
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(root, "cmd", "syncio", "doc.go"), filepath.Join(root, "cmd", "syncio", "driver", "driver.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range vettool.FindAllStringSubmatch(line, -1) {
				value, slash := m[1], m[2]
				// "$VAR/path" and "$(pwd)/path" are never empty; in a
				// Markdown table "||" is written "\|\|".
				orElse := strings.Contains(value, "||") || strings.Contains(value, `\|\|`)
				safe := slash == "/" || (strings.HasPrefix(value, "$(") && orElse)
				if !safe {
					rel, _ := filepath.Rel(root, f)
					t.Errorf("%s:%d: %s can expand to nothing and run plain vet; use a path or $(... || echo /syncio-not-installed)", rel, i+1, m[0])
				}
			}
		}
	}
}

// publishSyncio writes a file-system module proxy serving this
// repository's tracked files as github.com/syncio/syncio@version and
// returns its directory.
func publishSyncio(t *testing.T, root, version string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	prefix := "github.com/syncio/syncio@" + version + "/"
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		// Nested modules (tools/golangci, testdata modules) are not part
		// of this module's zip, as the go command would make it.
		if name != "go.mod" && inNestedModule(root, name) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(prefix + name)
		if err == nil {
			_, err = w.Write(data)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	dir := filepath.Join(proxy, "github.com", "syncio", "syncio", "@v")
	writeFile(t, filepath.Join(dir, "list"), version+"\n")
	writeFile(t, filepath.Join(dir, version+".info"), fmt.Sprintf(`{"Version":%q,"Time":"2026-01-01T00:00:00Z"}`, version))
	writeFile(t, filepath.Join(dir, version+".mod"), string(gomod))
	writeFile(t, filepath.Join(dir, version+".zip"), buf.String())
	return proxy
}

// inNestedModule reports whether the repository file name lies under a
// directory with a go.mod of its own.
func inNestedModule(root, name string) bool {
	for d := filepath.Dir(name); d != "." && d != "/"; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(root, d, "go.mod")); err == nil {
			return true
		}
	}
	return false
}

func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

func goBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantWorkflowGo checks that the example workflow docs/ci/file sets up a
// Go that can build syncio, read in the service svc the docs set up: a
// service on an older Go (its own go.mod) would otherwise get a Go that
// cannot build syncio (GOTOOLCHAIN=local) or a second toolchain download.
func wantWorkflowGo(t *testing.T, root, svc, file string) {
	t.Helper()
	need, err := workflow.GoDirective(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range workflow.SetupGoProblems(readWorkflow(t, root, file), svc, need) {
		t.Errorf("docs/ci/%s: %s", file, p)
	}
}

// readWorkflow reads the example workflow docs/ci/file.
func readWorkflow(t *testing.T, root, file string) *workflow.File {
	t.Helper()
	f, err := workflow.Read(filepath.Join(root, "docs", "ci", file))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// workflowStep returns the run script of the step called name in the
// example workflow docs/ci/file.
func workflowStep(t *testing.T, root, file, name string) string {
	t.Helper()
	run := readWorkflow(t, root, file).Run(name)
	if run == "" {
		t.Fatalf("docs/ci/%s has no step %q with a run script", file, name)
	}
	return run
}

// TestWorkflowRunsTheDocumentedRoute runs the build and run steps of
// docs/ci/syncio.yml in a service set up by the docs/ci.md blocks: the
// build step is the documented command, findings fail the step with 3 and
// still write SARIF, and SYNCIO_REPORT_ONLY=true ("report, don't block")
// turns that into 0.
func TestWorkflowRunsTheDocumentedRoute(t *testing.T) {
	a := newAdopter(t)
	a.expect("tools-clone", 0, false)
	step := func(name string, env ...string) (string, int) {
		t.Helper()
		cmd := exec.Command("bash", "-eo", "pipefail", "-c", workflowStep(t, a.root, "syncio.yml", name))
		cmd.Dir = a.dir
		cmd.Env = append(append([]string{}, a.env...), env...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatalf("step %s: %v\n%s", name, err, out)
		}
		return string(out), 0
	}
	wantWorkflowGo(t, a.root, a.dir, "syncio.yml")
	if out, code := step("Build syncio (version pinned in tools/go.mod)"); code != 0 {
		t.Fatalf("build step: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		reportOnly string
		want       int
	}{{"", 3}, {"true", 0}} {
		sarif := filepath.Join(a.dir, "syncio.sarif")
		_ = os.Remove(sarif)
		out, code := step("Run syncio", "REPORT_ONLY="+c.reportOnly)
		if code != c.want || !svcFinding.MatchString(out) {
			t.Errorf("run step with REPORT_ONLY=%q: exit %d, want %d with the finding\n%s", c.reportOnly, code, c.want, out)
		}
		if _, err := os.Stat(sarif); err != nil {
			t.Errorf("run step with REPORT_ONLY=%q wrote no SARIF: %v", c.reportOnly, err)
		}
	}

	// With a committed baseline the step fails only on a new finding.
	cmd := exec.Command("bin/syncio", "-baseline", "syncio-baseline.json", "./...")
	cmd.Dir, cmd.Env = a.dir, a.env
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "wrote the baseline syncio-baseline.json with 2 findings") {
		t.Fatalf("writing the baseline: %v\n%s", err, out)
	}
	if out, code := step("Run syncio", "REPORT_ONLY="); code != 0 || svcFinding.MatchString(out) {
		t.Errorf("run step with the baseline: exit %d, want 0 and the baselined finding not shown\n%s", code, out)
	}
	writeFile(t, filepath.Join(a.dir, "slow.go"), "package main\n\nimport (\n\t\"net/http\"\n\t\"time\"\n)\n\nfunc slow(w http.ResponseWriter, r *http.Request) {\n\ttime.Sleep(time.Second)\n}\n")
	out, code := step("Run syncio", "REPORT_ONLY=")
	if code != 3 || svcFinding.MatchString(out) || !strings.Contains(out, "slow.go:9:2: ") || !strings.Contains(out, "1 new findings; 2 more are in the baseline") {
		t.Errorf("run step with the baseline and one new finding: exit %d, want 3 with that finding only\n%s", code, out)
	}
}

// TestWorkflowNestedModule runs docs/ci/syncio.yml for a service whose
// go.mod is in backend/ of a git repository, with MODULE=backend as the
// workflow's comment says: every path the workflow names resolves from the
// repository's root, the run steps work in backend/, and the SARIF the
// upload step reads names backend/main.go, the path code scanning needs.
func TestWorkflowNestedModule(t *testing.T) {
	a := newAdopterAt(t, "repo/backend")
	repo := filepath.Dir(a.dir)
	cmd := exec.Command("git", "init", "-q", repo)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	a.expect("tools-clone", 0, false)

	wf := readWorkflow(t, a.root, "syncio.yml")
	if wf.Env["MODULE"] != "." {
		t.Fatalf("docs/ci/syncio.yml: env MODULE = %q, want \".\" (the go.mod at the root)", wf.Env["MODULE"])
	}
	// The expressions the workflow uses, with MODULE=backend.
	expand := strings.NewReplacer(workflow.Module, "backend", "format('{0}/syncio.sarif', env.MODULE)", "'backend/syncio.sarif'").Replace
	var sarifFile string
	for name, job := range wf.Jobs {
		if wd := expand(job.Defaults.Run.WorkingDirectory); wd != "backend" {
			t.Errorf("job %s: run steps work in %q, want MODULE's directory", name, job.Defaults.Run.WorkingDirectory)
		}
		for _, st := range job.Steps {
			switch {
			case strings.HasPrefix(st.Uses, "actions/checkout@") && st.With["repository"] == "syncio/syncio":
				if p := expand(st.With["path"]); p != "backend/tools/syncio" {
					t.Errorf("syncio is checked out to %q, want backend/tools/syncio, where tools/go.mod's replace points", p)
				}
			case strings.HasPrefix(st.Uses, "actions/setup-go@"):
				// The service here has no requirements, so no go.sum: the
				// paths must start in MODULE, and the tools module's exist.
				for _, f := range append([]string{st.With["go-version-file"]}, strings.Fields(expand(st.With["cache-dependency-path"]))...) {
					f = expand(f)
					if !strings.HasPrefix(f, "backend/") {
						t.Errorf("setup-go names %s, which is not in MODULE's directory", f)
					} else if _, err := os.Stat(filepath.Join(repo, f)); err != nil && strings.HasPrefix(f, "backend/tools/") {
						t.Errorf("setup-go names %s, which does not exist: %v", f, err)
					}
				}
			case strings.HasPrefix(st.Uses, "github/codeql-action/upload-sarif@"):
				sarifFile = expand(st.With["sarif_file"])
				if !strings.Contains(expand(st.If), "hashFiles('backend/syncio.sarif')") {
					t.Errorf("the upload's condition does not look for the SARIF in MODULE: %s", st.If)
				}
			}
		}
	}
	if sarifFile != "backend/syncio.sarif" {
		t.Fatalf("upload-sarif reads %q, want backend/syncio.sarif", sarifFile)
	}

	env := append(append([]string{}, a.env...), "MODULE=backend", "REPORT_ONLY=")
	for _, name := range []string{"Build syncio (version pinned in tools/go.mod)", "Run syncio"} {
		cmd := exec.Command("bash", "-eo", "pipefail", "-c", workflowStep(t, a.root, "syncio.yml", name))
		cmd.Dir, cmd.Env = a.dir, env
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if name == "Run syncio" {
			if !errors.As(err, &exit) || exit.ExitCode() != 3 || !svcFinding.MatchString(string(out)) {
				t.Fatalf("step %s: %v, want exit 3 with the finding\n%s", name, err, out)
			}
		} else if err != nil {
			t.Fatalf("step %s: %v\n%s", name, err, out)
		}
	}
	rep, err := os.ReadFile(filepath.Join(repo, sarifFile))
	if err != nil {
		t.Fatalf("the run step wrote no %s: %v", sarifFile, err)
	}
	if !strings.Contains(string(rep), `"uri": "backend/main.go"`) && !strings.Contains(string(rep), `"uri":"backend/main.go"`) {
		t.Errorf("%s names no backend/main.go: code scanning would not find the file\n%s", sarifFile, rep)
	}
}

// TestEveryDocBlockIsRun: a block marked in docs/ci.md promises a test
// runs it; this list names the test of each, so a new marker without a
// test fails here.
func TestEveryDocBlockIsRun(t *testing.T) {
	runBy := map[string]string{
		"tools-published":     "TestAdoptionToolsModulePublished",
		"tools-published-run": "TestAdoptionToolsModulePublished",
		"tools-clone":         "TestAdoptionToolsModuleFromClone",
		"tools-private":       "TestAdoptionToolsModulePrivate",
		"tools-run":           "TestAdoptionToolsModuleFromClone",
		"gitignore-bin":       "TestAdoptionToolsModuleFromClone",
		"vet-tools":           "TestAdoptionToolsModuleFromClone",
		"install-clone":       "TestAdoptionGoInstallFromClone",
		"vet-path":            "TestAdoptionGoInstallFromClone",
		"golangci-module":     "tools/golangci TestDocRecipe",
		"golangci-main":       "tools/golangci TestDocRecipe",
		"golangci-build":      "tools/golangci TestDocRecipe",
		"golangci-config":     "tools/golangci TestDocRecipe",
		"golangci-stock-step": "tools/golangci TestMigratedWorkflow",
		"make-lint":           "tools/golangci TestWorkflowRunStep",
		"settings-lists":      "analyzer/plugin TestDocSettingsLists",
	}
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := docblock.All(string(doc))
	if err != nil {
		t.Fatalf("docs/ci.md: %v", err)
	}
	seen := map[string]bool{}
	for _, b := range blocks {
		seen[b.Name] = true
		if runBy[b.Name] == "" {
			t.Errorf("docs/ci.md block %q is marked as tested, but no test runs it", b.Name)
		}
	}
	for name, test := range runBy {
		if !seen[name] {
			t.Errorf("%s runs block %q, which docs/ci.md no longer has", test, name)
		}
	}
}
