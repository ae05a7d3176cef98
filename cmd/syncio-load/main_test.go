package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/loadtest"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
)

func TestParseRunDefaults(t *testing.T) {
	o, err := parseRun(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	q := schedule.Quick()
	if o.cfg.Profile.Name != "quick" || len(o.cfg.Profile.Users) != len(q.Users) || o.cfg.Profile.TopSettleBlocking != q.TopSettleBlocking {
		t.Errorf("profile = %+v", o.cfg.Profile)
	}
	if len(o.cfg.Scenarios) != 2 || o.cfg.Scenarios[0].Name != "sync-profile" || o.cfg.Scenarios[1].Name != "async-profile" {
		t.Errorf("default scenarios = %+v", o.cfg.Scenarios)
	}
	if !o.cfg.InProcess || !strings.HasPrefix(o.cfg.OutDir, "results/") || o.cfg.BackendLatency != 2*time.Second {
		t.Errorf("cfg = %+v", o.cfg)
	}
}

func TestParseRunOverrides(t *testing.T) {
	o, err := parseRun([]string{"-profile", "full", "-max-users", "1200", "-top-settle", "7s", "-warmup", "0s", "-target", "http://127.0.0.1:9", "-scenarios", "upload"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	p := o.cfg.Profile
	if fmt.Sprint(p.Users) != "[1 400 800 1200]" {
		t.Errorf("users = %v, want the full profile's +400 ramp to 1200", p.Users)
	}
	if p.TopSettleBlocking != 7*time.Second || p.Warmup != 0 || p.Settle != schedule.Full().Settle {
		t.Errorf("profile = %+v", p)
	}
	if o.cfg.InProcess || o.cfg.BaseURL != "http://127.0.0.1:9" || o.cfg.Scenarios[0].Name != "sync-upload" {
		t.Errorf("cfg = %+v", o.cfg)
	}
	o, err = parseRun([]string{"-users", "1, 5,9"}, &bytes.Buffer{})
	if err != nil || fmt.Sprint(o.cfg.Profile.Users) != "[1 5 9]" {
		t.Errorf("-users: %v, %v", o.cfg.Profile.Users, err)
	}
}

func TestParseRunErrors(t *testing.T) {
	cases := map[string][]string{
		"unknown profile":   {"-profile", "medium"},
		"unknown scenario":  {"-scenarios", "nope"},
		"decreasing users":  {"-users", "10,5"},
		"not a number":      {"-users", "1,x"},
		"bad target":        {"-target", "127.0.0.1:8080"},
		"stray argument":    {"extra"},
		"undefined flag":    {"-frobnicate"},
		"negative upload":   {"-upload-size", "-1"},
		"zero top window":   {"-top-measure", "0s"},
		"zero step users":   {"-step-users", "0"},
		"bad duration":      {"-settle", "soon"},
		"zero workers":      {"-workers", "0"},
		"zero backend wait": {"-backend-latency", "0s"},
	}
	for name, args := range cases {
		if _, err := parseRun(args, &bytes.Buffer{}); err == nil {
			t.Errorf("%s: %v accepted", name, args)
		}
	}
}

func TestHelpDocumentsFlagsAndScenarios(t *testing.T) {
	var stderr bytes.Buffer
	_, err := parseRun([]string{"-h"}, &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	for _, want := range []string{"-profile", "-scenarios", "-target", "-out", "-upload-size", "-top-settle", "Retry-After", "async-upload-client-per-request", "report"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if code := run(context.Background(), []string{"-h"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 0 {
		t.Errorf("-h exits %d", code)
	}
}

func TestRunExitCodes(t *testing.T) {
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"-profile", "medium"}, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "medium") {
		t.Errorf("bad flag: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"report"}, &bytes.Buffer{}, &stderr); code != 2 || !strings.Contains(stderr.String(), "at least one results folder") {
		t.Errorf("report without folders: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run(context.Background(), []string{"report", "-out", t.TempDir(), t.TempDir()}, &bytes.Buffer{}, &stderr); code != 1 || !strings.Contains(stderr.String(), "summary") {
		t.Errorf("report of an empty folder: exit %d, %q", code, stderr.String())
	}
}

func TestColdStartMode(t *testing.T) {
	for _, bad := range [][]string{
		{"-scenarios", "coldstart,headline"},
		{"-scenarios", "coldstart", "-target", "http://127.0.0.1:9"},
		{"-scenarios", "coldstart", "-coldstart-trials", "0"},
	} {
		if _, err := parseRun(bad, &bytes.Buffer{}); err == nil {
			t.Errorf("parseRun(%q) accepted", bad)
		}
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"-scenarios", "coldstart", "-coldstart-trials", "1", "-coldstart-requests", "2",
		"-coldstart-latency", "1ms", "-workers", "2", "-queue", "4", "-upload-size", "128", "-out", dir}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	sum, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Profile != "coldstart" || len(sum.ColdStart) != len(loadtest.ColdStartScenarios) {
		t.Fatalf("summary = %+v", sum)
	}
	// Both load averages are recorded where the machine has one to read.
	if _, err := os.Stat("/proc/loadavg"); err == nil && (sum.Machine.LoadAvgBefore == "" || sum.Machine.LoadAvgAfter == "") {
		t.Errorf("load average before %q, after %q: want both", sum.Machine.LoadAvgBefore, sum.Machine.LoadAvgAfter)
	}
	for i, c := range sum.ColdStart {
		if c.Name != loadtest.ColdStartScenarios[i] || len(c.FirstS) != 1 || c.WarmMedianOfTrialsS <= 0 {
			t.Errorf("cold start %d = %+v", i, c)
		}
		if !strings.Contains(stdout.String(), c.Name) {
			t.Errorf("stdout lacks %s:\n%s", c.Name, stdout.String())
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "summary.md")); err != nil || !bytes.Contains(b, []byte("Cold start vs warm")) {
		t.Errorf("summary.md: %v\n%s", err, b)
	}
}

// failingWriter fails every write, like a closed pipe.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestReportSaysWhyItFails(t *testing.T) {
	src := t.TempDir()
	if err := (&report.Summary{Profile: "quick"}).WriteJSON(filepath.Join(src, report.SummaryFile)); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"report", "-out", t.TempDir(), src}, failingWriter{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("report with a failing stdout: exit %d, stderr %q; want 1 and the reason", code, stderr.String())
	}
}
