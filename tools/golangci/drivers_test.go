package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// updateEnv, set to 1, makes TestDriversAgreeOnDispatch rewrite the table
// it checks in docs/ci.md instead of failing on a difference.
const updateEnv = "SYNCIO_UPDATE_DOCS"

// driverOut is a line of the standalone and go vet drivers: a finding, or
// a hop of its chain (message indented with a tab).
var driverOut = regexp.MustCompile(`(?m)^(?:\./)?(\S+\.go):(\d+):(\d+): (.*)$`)

// placed is a line of output at its place: "file:line:col: message".
type placed struct {
	file      string
	line, col int
	msg       string
}

func (p placed) at() string   { return fmt.Sprintf("%s:%d:%d", p.file, p.line, p.col) }
func (p placed) rule() string { return ruleSuffix.FindStringSubmatch(p.msg)[1] }

// key is the finding without its column: what the markers say.
func (p placed) key() string { return fmt.Sprintf("%s:%d: %s", p.file, p.line, p.rule()) }

// driverRun is what one driver printed for testdata/wired.
type driverRun struct {
	name            string
	findings, hops  []placed
	code            int
	hopsNotCompared string // why hops are not compared, if they are not
}

// TestDriversAgreeOnDispatch runs the interface-dispatch module
// (testdata/wired: handlers reach storage through interfaces bound in a
// wiring package that two mains import) through all three drivers: the
// standalone syncio, go vet -vettool and golangci-lint with the plugin.
// The handler package does not import the implementation, so the findings
// come from the package that sees both sides. Every driver must report
// each marked finding exactly once, at the standalone's line and column,
// wherever the call sits in its file: among the exported declarations,
// below the last one (go vet's export data of a file ends there), or in a
// file with none. One handler is a registration root (no handler by its
// type, registered through the service's own adapter): it is reported once,
// at the function value, by every driver; another is registered through
// the service's own registration helper (a registrar, by fact) and is
// reported inside itself. A third handler calls a func value the wiring
// stored in a struct field (a stored callback), and is reported at that
// call through the function stored there. A handler gives
// context.Background() to two helpers whose only evidence of I/O is a
// call through an interface: SIO002 is decided in the wiring package,
// reported for the one bound to the database and silent for the one bound
// to an in-memory cache, by every driver. One interface is bound in a
// package the wiring imports only through another (remote, through
// config): go vet hands a package the package facts of its direct imports
// only, so the binding reaches the wiring carried by config's fact.
// A handler's branch that ends in crash.Exit (another package, which ends
// the process) has no marker: every driver must see crash's ExitsFact and
// report nothing in it.
// The per-place counts are the table between the
// "drivers-dispatch" markers in docs/ci.md, which this test checks (and
// rewrites with SYNCIO_UPDATE_DOCS=1).
func TestDriversAgreeOnDispatch(t *testing.T) {
	dir := copyModule(t, "wired", "wired.golangci.yml")
	want, place := wiredMarkers(t, dir)
	for _, p := range []string{placeExported, placeBelow, placeNone, placeIndirect} {
		if n := countPlace(want, place, p); n < 1 {
			t.Fatalf("testdata/wired has no finding marker %s", p)
		}
	}

	syncio := buildSyncio(t)
	textDriver := func(name string, args ...string) driverRun {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		run := driverRun{name: name}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			run.code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		for _, m := range driverOut.FindAllStringSubmatch(string(out), -1) {
			p := placed{file: filepath.ToSlash(m[1]), msg: m[4]}
			fmt.Sscan(m[2], &p.line)
			fmt.Sscan(m[3], &p.col)
			switch {
			case strings.HasPrefix(p.msg, "\t"):
				p.msg = strings.TrimPrefix(p.msg, "\t")
				run.hops = append(run.hops, p)
			case ruleSuffix.MatchString(p.msg):
				run.findings = append(run.findings, p)
			}
		}
		if len(run.findings) == 0 {
			t.Logf("%s printed no finding:\n%s", name, out)
		}
		return run
	}
	// One finding per request path, as go vet and golangci-lint report:
	// the standalone's folding by cause is its own presentation (ci.md).
	standalone := textDriver("standalone", syncio, "-group=false", "./...")
	vet := textDriver("go vet", "go", "vet", "-vettool="+syncio, "./...")

	golangci := driverRun{name: "golangci-lint",
		hopsNotCompared: "not compared: each hop is an issue of its own (see [Findings through helpers](#findings-through-helpers))"}
	issues, code := newLinter(t).report(t, dir)
	golangci.code = code
	for _, is := range issues {
		if is.FromLinter != "syncio" || strings.HasPrefix(is.Text, relatedPrefix) || !ruleSuffix.MatchString(is.Text) {
			continue
		}
		golangci.findings = append(golangci.findings, placed{
			file: strings.TrimPrefix(filepath.ToSlash(is.Pos.Filename), "./"),
			line: is.Pos.Line, col: is.Pos.Column, msg: is.Text,
		})
	}

	if standalone.code != 3 {
		t.Errorf("standalone exit code %d, want 3", standalone.code)
	}
	if vet.code == 0 {
		t.Errorf("go vet exit code 0, want non-zero")
	}
	if golangci.code != 1 {
		t.Errorf("golangci-lint exit code %d, want 1", golangci.code)
	}
	// The standalone command loads every package from source: its columns
	// are the reference.
	ref := map[string]string{}
	for _, f := range standalone.findings {
		ref[f.key()] = f.at()
	}
	runs := []driverRun{standalone, vet, golangci}
	for _, run := range runs {
		var got []string
		for _, f := range run.findings {
			got = append(got, f.key())
			if r, ok := ref[f.key()]; ok && r != f.at() {
				t.Errorf("%s reports %s at %s, the standalone at %s", run.name, f.key(), f.at(), r)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: findings (file:line: rule)\n got %v\nwant %v", run.name, got, want)
		}
	}
	// go vet's chains, hop by hop, at the standalone's places.
	hopSet := func(r driverRun) []string {
		var s []string
		for _, h := range r.hops {
			s = append(s, h.at()+": "+h.msg)
		}
		slices.Sort(s)
		return s
	}
	if a, b := hopSet(standalone), hopSet(vet); !slices.Equal(a, b) {
		t.Errorf("chain hops differ\nstandalone %q\n    go vet %q", a, b)
	}

	table := dispatchTable(runs, want, place, ref, hopSet(standalone))
	checkDocTable(t, filepath.Join("..", "..", "docs", "ci.md"), "drivers-dispatch", table)
}

// Where a marked call sits in its file.
const (
	placeExported = "among the file's exported declarations"
	placeBelow    = "below the file's last exported declaration"
	placeNone     = "in a file with no exported declaration"
	// A call marked "// bound below an import": its binding is made in a
	// package that the wiring imports only through another.
	placeIndirect = "bound in a package the wiring imports only through another"
)

// indirectMarker marks a finding whose binding the wiring sees only
// through another package's facts (carried, under go vet).
const indirectMarker = "// bound below an import"

// wiredMarkers returns the "// finding: ID" markers of testdata/wired/api
// as sorted "file:line: ID" strings, and each one's place in its file.
func wiredMarkers(t *testing.T, dir string) ([]string, map[string]string) {
	t.Helper()
	var want []string
	place := map[string]string{}
	// api holds the handlers; app the wiring, where a handler registered
	// through the service's own adapter is reported (a registration root).
	var files []string
	for _, pkg := range []string{"api", "app"} {
		fs, err := filepath.Glob(filepath.Join(dir, pkg, "*.go"))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no %s/*.go in testdata/wired: %v", pkg, err)
		}
		files = append(files, fs...)
	}
	for _, path := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		lastExported := 0 // end line of the last exported top-level declaration
		for _, d := range f.Decls {
			if exportsName(d) {
				lastExported = max(lastExported, fset.Position(d.End()).Line)
			}
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
		for i, line := range strings.Split(string(src), "\n") {
			for _, m := range findingMarker.FindAllStringSubmatch(line, -1) {
				k := fmt.Sprintf("%s:%d: %s", rel, i+1, m[1])
				want = append(want, k)
				switch {
				case strings.Contains(line, indirectMarker):
					place[k] = placeIndirect
				case lastExported == 0:
					place[k] = placeNone
				case i+1 > lastExported:
					place[k] = placeBelow
				default:
					place[k] = placeExported
				}
			}
		}
	}
	slices.Sort(want)
	return want, place
}

func exportsName(d ast.Decl) bool {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Name.IsExported()
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				if s.Name.IsExported() {
					return true
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() {
						return true
					}
				}
			}
		}
	}
	return false
}

func countPlace(keys []string, place map[string]string, p string) int {
	n := 0
	for _, k := range keys {
		if place[k] == p {
			n++
		}
	}
	return n
}

// dispatchTable is the Markdown table of what each driver reported, by
// the place of the call in its file.
func dispatchTable(runs []driverRun, want []string, place, ref map[string]string, refHops []string) string {
	var b strings.Builder
	b.WriteString("| interface-dispatch findings of `tools/golangci/testdata/wired`, by where the handler's call sits |")
	for _, r := range runs {
		b.WriteString(" " + r.name + " |")
	}
	b.WriteString("\n|---|---|---|---|\n")
	for _, p := range []string{placeExported, placeBelow, placeNone, placeIndirect} {
		fmt.Fprintf(&b, "| %s |", p)
		total := countPlace(want, place, p)
		for _, r := range runs {
			found, exact := 0, 0
			for _, f := range r.findings {
				if place[f.key()] != p {
					continue
				}
				found++
				if ref[f.key()] == f.at() {
					exact++
				}
			}
			fmt.Fprintf(&b, " %d of %d", found, total)
			if found > 0 && exact < found {
				fmt.Fprintf(&b, " (%d at another column)", found-exact)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	b.WriteString("| chain hops at the standalone's `file:line:col` |")
	for _, r := range runs {
		if r.hopsNotCompared != "" {
			b.WriteString(" " + r.hopsNotCompared + " |")
			continue
		}
		same := 0
		for _, h := range r.hops {
			if slices.Contains(refHops, h.at()+": "+h.msg) {
				same++
			}
		}
		fmt.Fprintf(&b, " %d of %d |", same, len(refHops))
	}
	b.WriteString("\n")
	return b.String()
}

// checkDocTable compares the text between the markers
// "<!-- name: generated ... -->" and "<!-- end name -->" of a doc with
// want, or rewrites it when SYNCIO_UPDATE_DOCS=1.
func checkDocTable(t *testing.T, path, name, want string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	begin := "<!-- " + name + ": generated by "
	end := "<!-- end " + name + " -->"
	i := strings.Index(doc, begin)
	j := strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, begin, end)
	}
	i += strings.Index(doc[i:], "-->\n") + len("-->\n")
	if doc[i:j] == want {
		return
	}
	if os.Getenv(updateEnv) == "1" {
		if err := os.WriteFile(path, []byte(doc[:i]+want+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the %s table of %s", name, path)
		return
	}
	t.Errorf("the %s table of %s is not what the drivers reported (rerun with %s=1 to rewrite it):\n got\n%s\nwant\n%s", name, path, updateEnv, doc[i:j], want)
}
