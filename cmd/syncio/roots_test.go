package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// TestRootsLine: every standalone run ends with the roots line, which
// -sarif carries as a note; a package whose registrations led to no root
// is warned about on stderr and in SARIF, -roots-report lists every root and registration, and
// -strict-roots fails the run with exit 4. Under go vet, only the
// analyzer's -strict-roots can say it, as an SIO000 diagnostic.
// testdata/roots is a module of its own: served registers a handler that
// is followed, blind two handlers kept in struct fields.
func TestRootsLine(t *testing.T) {
	bin := syncioBinary(t)
	dir := filepath.Join("testdata", "roots")
	run := func(name string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out), 0
	}
	tmp := t.TempDir()
	report, sarifPath := filepath.Join(tmp, "roots.json"), filepath.Join(tmp, "out.sarif")

	out, code := run(bin, "-roots-report", report, "-sarif", sarifPath, "./...")
	if code != 3 {
		t.Errorf("exit %d, want 3 (the finding in served)\n%s", code, out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	const wantLine = "syncio: roots: 1 request handler (net/http 1; by signature 1); 3 registration calls, " +
		"2 with a handler syncio could not resolve to a function (blind/blind.go:10, blind/blind.go:11)"
	if last := lines[len(lines)-1]; last != wantLine {
		t.Errorf("last line:\n%s\nwant:\n%s", last, wantLine)
	}
	const warn = "syncio: warning: package example.com/roots/blind registers routes (2 registration calls, the first at blind/blind.go:10) but no request root was found in it"
	if !strings.Contains(out, warn) {
		t.Errorf("no warning for blind:\n%s", out)
	}
	if strings.Contains(out, "package example.com/roots/served registers") {
		t.Errorf("warning for served, which has a root:\n%s", out)
	}

	var rep struct {
		Roots      []struct{ Name, Pos, Framework, How, Kind string }
		Unresolved []struct {
			Pos, Call  string
			Unresolved []string
		}
		Registrations []struct{ Pos string }
		Blind         []struct{ Package string } `json:"blind_packages"`
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(rep.Roots) != 1 || rep.Roots[0].Name != "served.users" || rep.Roots[0].Pos != "served/served.go:10:6" ||
		rep.Roots[0].Framework != "net/http" || rep.Roots[0].How != "signature" || rep.Roots[0].Kind != "handler" {
		t.Errorf("roots = %+v", rep.Roots)
	}
	if len(rep.Registrations) != 3 || len(rep.Unresolved) != 2 {
		t.Errorf("%d registrations, %d unresolved; want 3, 2\n%s", len(rep.Registrations), len(rep.Unresolved), data)
	} else if u := rep.Unresolved[0]; u.Pos != "blind/blind.go:10:2" || u.Call != "net/http.(*ServeMux).HandleFunc" ||
		len(u.Unresolved) != 1 || u.Unresolved[0] != "h.List: field List" {
		t.Errorf("unresolved[0] = %+v", u)
	}
	if len(rep.Blind) != 1 || rep.Blind[0].Package != "example.com/roots/blind" {
		t.Errorf("blind = %+v", rep.Blind)
	}

	log, err := sarif.Open(sarifPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := log.Validate(); err != nil {
		t.Fatalf("SARIF schema: %v", err)
	}
	var notes []string
	for _, inv := range log.Runs[0].Invocations {
		if inv.ExecutionSuccessful == nil || !*inv.ExecutionSuccessful {
			t.Error("a warning marked the run unsuccessful")
		}
		for _, n := range inv.ToolExecutionNotifications {
			notes = append(notes, n.Level+" "+*n.Message.Text)
		}
	}
	// The warning, then the roots line as a note: a log with no result
	// still says what the run looked at.
	if len(notes) != 2 || !strings.HasPrefix(notes[0], "warning warning: package example.com/roots/blind registers routes") ||
		notes[1] != "note "+strings.TrimPrefix(wantLine, "syncio: ") {
		t.Errorf("SARIF notifications = %q", notes)
	}

	out, code = run(bin, "-strict-roots", "./...")
	if code != 4 {
		t.Errorf("-strict-roots: exit %d, want 4\n%s", code, out)
	}
	out, code = run(bin, "-strict-roots", "./served")
	if code != 3 {
		t.Errorf("-strict-roots on served alone: exit %d, want 3\n%s", code, out)
	}

	out, code = run("go", "vet", "-vettool="+bin, "./blind")
	if code != 0 || strings.Contains(out, "SIO000") {
		t.Errorf("vet without -strict-roots: exit %d, want 0 and no diagnostic\n%s", code, out)
	}
	out, code = run("go", "vet", "-vettool="+bin, "-strict-roots", "./blind")
	if code != 1 || !strings.Contains(out, "blind.go:10:2: this package registers routes (2 registration calls) but syncio found no request root in it") {
		t.Errorf("vet -strict-roots: exit %d, want 1 and the SIO000 diagnostic\n%s", code, out)
	}
}
