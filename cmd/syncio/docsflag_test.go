package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/syncio/syncio/analyzer"
)

// TestFindingsNameTheirFixPage runs the binary on testdata/drivers/ok (one
// SIO001 and one SIO005 finding) and checks that every output names each
// finding's fix page: by default under the repository's docs, and with
// -docs under the base given.
func TestFindingsNameTheirFixPage(t *testing.T) {
	bin := syncioBinary(t)
	dir := filepath.Join("testdata", "drivers")
	run := func(args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v\n%s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}

	for _, c := range []struct {
		name, base string
		args       []string
	}{
		{"default", analyzer.DefaultDocsBase, nil},
		{"-docs", "https://docs.example.test/syncio/", []string{"-docs", "https://docs.example.test/syncio"}},
	} {
		sarifPath := filepath.Join(t.TempDir(), "out.sarif")
		_, stderr := run(append(c.args, "-sarif", sarifPath, "./ok")...)
		found, pages, other := parseText(stderr)
		if n := len(other); n > 0 && strings.HasPrefix(other[n-1], "syncio: roots: ") {
			other = other[:n-1] // the run's closing roots line (TestRootsLine)
		}
		if len(found) != 2 || len(other) > 0 {
			t.Errorf("%s: %d findings and other lines %q, want the two of ok.go:\n%s", c.name, len(found), other, stderr)
		}
		checkPages(t, found, pages, c.base)

		rep, err := sarif.Open(sarifPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Runs[0].Tool.Driver.Rules {
			if want := c.base + analyzer.FixPage(*r.ID); r.HelpURI == nil || *r.HelpURI != want {
				t.Errorf("%s: SARIF rule %s helpUri %v, want %s", c.name, *r.ID, r.HelpURI, want)
			}
			if r.Help == nil || r.Help.Text == nil || !strings.Contains(*r.Help.Text, c.base+analyzer.RulePage(*r.ID)) {
				t.Errorf("%s: SARIF rule %s help does not name the rule page: %v", c.name, *r.ID, r.Help)
			}
		}

		stdout, _ := run(append(c.args, "-json", "./ok")...)
		var tree map[string]map[string][]struct {
			Category string `json:"category"`
			URL      string `json:"url"`
		}
		if err := json.Unmarshal([]byte(stdout), &tree); err != nil {
			t.Fatalf("%s: -json: %v\n%s", c.name, err, stdout)
		}
		n := 0
		for _, byAnalyzer := range tree {
			for _, d := range byAnalyzer["syncio"] {
				n++
				if want := c.base + analyzer.FixPage(d.Category); d.URL != want {
					t.Errorf("%s: -json %s url %q, want %q", c.name, d.Category, d.URL, want)
				}
			}
		}
		if n != 2 {
			t.Errorf("%s: -json has %d diagnostics, want 2:\n%s", c.name, n, stdout)
		}
	}
}
