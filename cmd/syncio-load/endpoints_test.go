package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseRunEndpoints(t *testing.T) {
	dir := t.TempDir()
	body := filepath.Join(dir, "b.json")
	if err := os.WriteFile(body, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err := parseRun([]string{"-target", "http://127.0.0.1:9", "-endpoint", "v1=POST /v1", "-endpoint", "v2=POST http://other:8/v2",
		"-header", "Authorization: Bearer x", "-header", "X-A: 1", "-body", "@" + body,
		"-metrics", "http://127.0.0.1:9/stats", "-metric-busy", "go_sql_in_use_connections"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	scs := o.cfg.Scenarios
	if len(scs) != 2 || scs[0].Name != "v1" || scs[1].Name != "v2" || !o.given {
		t.Fatalf("scenarios %+v", scs)
	}
	tg := scs[1].Target(o.cfg.BaseURL, 0)
	if tg.URL != "http://other:8/v2" || tg.Header.Get("Authorization") != "Bearer x" || tg.Header.Get("X-A") != "1" || string(tg.Body) != `{"a":1}` {
		t.Errorf("target %+v", tg)
	}
	if o.cfg.APIProcess != "external" || o.cfg.InProcess || o.cfg.Storage != nil || o.cfg.UploadBackendLatency != 0 {
		t.Errorf("cfg %+v: given endpoints start no API and have no storage model", o.cfg)
	}
	if o.cfg.MetricsURL != "http://127.0.0.1:9/stats" || o.cfg.ScrapeInterval != time.Second || o.cfg.NoMetrics || o.cfg.MetricNames.Busy != "go_sql_in_use_connections" || o.cfg.MetricNames.Queue != "syncio_pool_queue_length" {
		t.Errorf("metrics %q every %v names %+v", o.cfg.MetricsURL, o.cfg.ScrapeInterval, o.cfg.MetricNames)
	}
	// Without -metrics a service of one's own is not scraped.
	o, err = parseRun([]string{"-endpoint", "a=GET http://h:1/a"}, &bytes.Buffer{})
	if err != nil || !o.cfg.NoMetrics || o.cfg.BaseURL != "" {
		t.Errorf("no -metrics: no-metrics %v, base %q, %v", o.cfg.NoMetrics, o.cfg.BaseURL, err)
	}
	targets := filepath.Join(dir, "targets.txt")
	if err := os.WriteFile(targets, []byte("GET /a\n\nGET /b\nX-B: 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o, err = parseRun([]string{"-target", "http://h:1", "-targets", targets}, &bytes.Buffer{})
	if err != nil || len(o.cfg.Scenarios) != 2 || o.cfg.Scenarios[1].Name != "get-b" || o.cfg.Scenarios[1].Header.Get("X-B") != "2" {
		t.Errorf("-targets: %+v %v", o.cfg.Scenarios, err)
	}
}

// TestEndpointUsageErrors: every malformed value is a usage error (exit 2)
// that names the flag and the value.
func TestEndpointUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("FETCH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"-target", "http://h:1", "-endpoint", "GET /a"}, []string{"-endpoint", `"GET /a"`, "NAME=METHOD PATH"}},
		{[]string{"-target", "http://h:1", "-endpoint", "a=get /a"}, []string{"-endpoint", `"a=get /a"`, "method"}},
		{[]string{"-endpoint", "a=GET /a"}, []string{"-endpoint", `"a=GET /a"`, "-target"}},
		{[]string{"-target", "http://h:1", "-endpoint", "a=GET /a", "-endpoint", "a=GET /b"}, []string{"-endpoint", `"a=GET /b"`, "twice"}},
		{[]string{"-target", "http://h:1", "-targets", bad}, []string{"-targets", bad, "bad target"}},
		{[]string{"-target", "http://h:1", "-targets", filepath.Join(dir, "none.txt")}, []string{"-targets", "none.txt", "no such file"}},
		{[]string{"-target", "http://h:1", "-targets", bad, "-endpoint", "a=GET /a"}, []string{"-endpoint or -targets"}},
		{[]string{"-target", "http://h:1", "-endpoint", "a=GET /a", "-header", "NoColon"}, []string{"-header", `"NoColon"`}},
		{[]string{"-target", "http://h:1", "-endpoint", "a=GET /a", "-body", "file.json"}, []string{"-body", `"file.json"`, "@FILE"}},
		{[]string{"-target", "http://h:1", "-endpoint", "a=GET /a", "-body", "@/no/such"}, []string{"-body", `"@/no/such"`}},
		{[]string{"-target", "http://h:1", "-endpoint", "a=GET /a", "-scenarios", "upload"}, []string{"-scenarios"}},
		{[]string{"-header", "X: 1"}, []string{"-header and -body apply to -endpoint"}},
		{[]string{"-endpoint", "a=GET http://h/a", "-metrics", "h:9/metrics"}, []string{"-metrics", `"h:9/metrics"`}},
		{[]string{"-endpoint", "a=GET http://h/a", "-metric-busy", "in_use{db=before}"}, []string{"-metric-busy", `"in_use{db=before}"`, `label="value"`}},
		{[]string{"-endpoint", "a=GET http://h/a", "-metric-queue", "9lives"}, []string{"-metric-queue", `"9lives"`}},
		{[]string{"-endpoint", "a=GET http://h/a", "-metric-busy", "in_use"}, []string{"-metric-busy", "give -metrics"}},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		code := run(context.Background(), c.args, &bytes.Buffer{}, &stderr)
		if code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", c.args, code, stderr.String())
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q: stderr lacks %q: %s", c.args, w, stderr.String())
			}
		}
		if strings.Contains(stderr.String(), "goroutine ") {
			t.Errorf("%q: a stack trace: %s", c.args, stderr.String())
		}
	}
}

// TestRunEndpointsAgainstAnotherService runs the command against a service
// that is not the demo: no API child is started (the test server is the
// only thing answering), the headline pairs the two endpoints, and the
// summary keys are the demo's.
func TestRunEndpointsAgainstAnotherService(t *testing.T) {
	var hits [2]atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /fast", func(w http.ResponseWriter, r *http.Request) { hits[0].Add(1); time.Sleep(5 * time.Millisecond) })
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, r *http.Request) { hits[1].Add(1); time.Sleep(50 * time.Millisecond) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dir := t.TempDir()
	args := []string{"-target", srv.URL, "-endpoint", "slow=GET /slow", "-endpoint", "fast=GET /fast",
		"-users", "1,4", "-warmup", "0s", "-settle", "200ms", "-measure", "500ms", "-top-settle", "200ms", "-top-measure", "500ms",
		"-drain", "1s", "-backend-latency", "10ms", "-quiet", "-out", dir}
	stdout, stderr, raw := runOK(t, args, dir)
	var keys struct {
		Headline map[string]any `json:"headline"`
		Pair     map[string]any `json:"pair"`
		Process  string         `json:"api_process"`
	}
	if err := json.Unmarshal(raw, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"users", "throughput_ratio", "mean_latency_ratio", "async_littles_law_efficiency", "async_errors"} {
		if _, ok := keys.Headline[k]; !ok {
			t.Errorf("headline lacks %q", k)
		}
	}
	if keys.Pair["baseline"] != "slow" || keys.Pair["candidate"] != "fast" || keys.Process != "external" {
		t.Errorf("pair %v, api_process %q", keys.Pair, keys.Process)
	}
	if r := keys.Headline["throughput_ratio"].(float64); r <= 2 {
		t.Errorf("throughput_ratio %v: a 5 ms endpoint should out-run a 50 ms one", r)
	}
	if !strings.Contains(stdout.String(), "fast") || !strings.Contains(stdout.String(), "slow got") || hits[0].Load() == 0 || hits[1].Load() == 0 {
		t.Errorf("table:\n%s", stdout.String())
	}
	if strings.Contains(stderr.String(), "API child") {
		t.Errorf("an API child was started: %s", stderr.String())
	}
}

func TestRunUnreachableEndpoint(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"-target", "http://" + addr, "-endpoint", "a=GET /a", "-quiet", "-out", t.TempDir()}, &bytes.Buffer{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "unreachable") || !strings.Contains(stderr.String(), addr) {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
}

func TestDashboardAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var stderr bytes.Buffer
	start := time.Now()
	code := run(context.Background(), []string{"-endpoint", "a=GET http://" + ln.Addr().String() + "/a", "-dashboard", ln.Addr().String(), "-quiet", "-out", t.TempDir()}, &bytes.Buffer{}, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "dashboard on "+ln.Addr().String()) || !strings.Contains(stderr.String(), "address already in use") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v: the address must be checked before the run", time.Since(start))
	}
}

func TestCommandLineQuotes(t *testing.T) {
	got := commandLine([]string{"-endpoint", "a=GET /a", "-header", "X-Q: it's", "-users", "1,5"})
	want := `syncio-load -endpoint 'a=GET /a' -header 'X-Q: it'\''s' -users 1,5`
	if got != want {
		t.Errorf("commandLine = %s, want %s", got, want)
	}
}
