package driver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syncio/syncio/cmd/syncio/driver"
)

// TestPartial: a package that does not load (a //go:embed file that is
// generated and git-ignored, not there in CI) is named on stderr with its
// error. Without -partial the run fails with 1, whatever -exit-zero says;
// with it the exit code tells findings (3) from none (0), so a
// report-only run (-exit-zero) stays green, and the findings of the
// packages that load are printed either way.
func TestPartial(t *testing.T) {
	const embedErr = "syncio: package example.com/mod/embedmiss: embed error: pattern missing.txt: no matching files found\n"
	for _, c := range []struct {
		args []string
		want int
		hint string
	}{
		{[]string{"./embedmiss", "./good"}, driver.ExitError, "pass -partial to analyse what loads"},
		{[]string{"-exit-zero", "./embedmiss", "./good"}, driver.ExitError, "pass -partial to analyse what loads"},
		{[]string{"-partial", "./embedmiss", "./good"}, driver.ExitFindings, "-partial: the packages above were not (fully) analysed"},
		{[]string{"-partial", "-exit-zero", "./embedmiss", "./good"}, driver.ExitClean, "-partial: the packages above were not (fully) analysed"},
		{[]string{"-partial", "./embedmiss", "./clean"}, driver.ExitClean, "-partial: the packages above were not (fully) analysed"},
		{[]string{"-partial", "./bad", "./good"}, driver.ExitFindings, "-partial: the packages above were not (fully) analysed"},
		// Nothing loaded: no exit by findings for a run that judged nothing.
		{[]string{"-partial", "./bad", "./embedmiss"}, driver.ExitError, "none of the 2 packages loaded without errors, so there is nothing to judge"},
		{[]string{"-partial", "-exit-zero", "./bad"}, driver.ExitError, "none of the 1 packages loaded without errors"},
	} {
		r := run(t, c.args...)
		if r.code != c.want {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, r.code, c.want, r.stderr)
		}
		if !strings.Contains(r.stderr, c.hint) {
			t.Errorf("%v: stderr lacks %q:\n%s", c.args, c.hint, r.stderr)
		}
		if c.args[len(c.args)-1] == "./good" && !strings.Contains(r.stderr, "Handler calls block") {
			t.Errorf("%v: the finding of the package that loads is missing:\n%s", c.args, r.stderr)
		}
		if strings.Contains(strings.Join(c.args, " "), "embedmiss") && strings.Count(r.stderr, embedErr) != 1 {
			t.Errorf("%v: stderr should name the broken package once:\n%s\ngot:\n%s", c.args, embedErr, r.stderr)
		}
	}
}

// TestNewerGoSaysWhatToDo: a module whose go.mod asks for a newer Go than
// the go command here, with GOTOOLCHAIN=local, fails to load with the
// version it needs and how to get it, not only the go command's words.
func TestNewerGoSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"go.mod": "module example.com/newer\n\ngo 1.999\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOTOOLCHAIN", "local")
	var out, errb bytes.Buffer
	code := driver.Run(driver.Config{Analyzer: testAnalyzer, Rules: testRules, Dir: dir, Stdout: &out, Stderr: &errb}, []string{"./..."})
	if code != driver.ExitError || !strings.Contains(errb.String(), "install Go 1.999 or newer and put it first on PATH") {
		t.Errorf("exit %d, stderr %q; want %d and how to get Go 1.999", code, errb.String(), driver.ExitError)
	}
}
