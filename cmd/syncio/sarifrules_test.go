package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
)

// TestSARIFRulesEnabledAsRun: a SARIF rule's defaultConfiguration.enabled
// says whether this run reported it, so that a log with no SIO006 result
// does not read as "SIO006 ran and found nothing": opt-in rules are off
// unless -rules names them, and -rules switches off the rules it leaves out.
func TestSARIFRulesEnabledAsRun(t *testing.T) {
	bin := syncioBinary(t)
	for _, c := range []struct {
		args []string
		on   map[string]bool
	}{
		{nil, map[string]bool{"SIO001": true, "SIO002": true, "SIO003": true, "SIO004": true, "SIO005": true, "SIO007": true, "SIO008": true}},
		{[]string{"-rules", "SIO001,SIO006"}, map[string]bool{"SIO001": true, "SIO006": true}},
	} {
		sarifPath := filepath.Join(t.TempDir(), "out.sarif")
		cmd := exec.Command(bin, append(c.args, "-sarif", sarifPath, "./ok")...)
		cmd.Dir = filepath.Join("testdata", "drivers")
		cmd.Env = append(cmd.Environ(), "GOWORK=off", "GOTOOLCHAIN=local")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		var exit *exec.ExitError
		if err := cmd.Run(); err != nil && !errors.As(err, &exit) {
			t.Fatalf("%v: %v\n%s", c.args, err, stderr.String())
		}
		rep, err := sarif.Open(sarifPath)
		if err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, stderr.String())
		}
		rules := rep.Runs[0].Tool.Driver.Rules
		if len(rules) < 7 {
			t.Errorf("%v: %d SARIF rules, want the whole catalogue", c.args, len(rules))
		}
		for _, r := range rules {
			if r.DefaultConfiguration == nil {
				t.Errorf("%v: rule %s has no defaultConfiguration", c.args, *r.ID)
				continue
			}
			if got, want := r.DefaultConfiguration.Enabled, c.on[*r.ID]; got != want {
				t.Errorf("%v: rule %s enabled %v, want %v", c.args, *r.ID, got, want)
			}
		}
	}
}
