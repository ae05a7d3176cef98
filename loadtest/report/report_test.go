package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func step(users int, rps, mean float64, requests, ok int) Step {
	return Step{Users: users, DurationS: 20, Requests: requests, OK: ok, Status503: requests - ok, ThroughputRPS: rps, LatencyMeanS: &mean}
}

func TestComputeHeadline(t *testing.T) {
	s := &Summary{BackendLatencyS: 2, Scenarios: []Scenario{
		{Name: "sync-profile", Steps: []Step{step(1, 0.5, 2, 10, 10), step(4000, 50, 60, 1000, 900)}},
		{Name: "wrapped-profile", Steps: []Step{step(4000, 1, 1, 1, 1)}},
		{Name: "async-profile", Steps: []Step{step(1, 0.5, 2, 10, 10), step(4000, 1980, 2.02, 39600, 39598)}},
	}}
	s.ComputeHeadline()
	h := s.Headline
	if h.Users != 4000 || h.AsyncErrors != 2 || h.Sync503 != 100 {
		t.Errorf("headline = %+v", h)
	}
	if got := deref(h.ThroughputRatio); got != 1980.0/50 {
		t.Errorf("throughput ratio = %v, want async/sync = %v", got, 1980.0/50)
	}
	if got := deref(h.MeanLatencyRatio); got != 60/2.02 {
		t.Errorf("latency ratio = %v, want sync/async = %v", got, 60/2.02)
	}
	if got := deref(h.AsyncLittlesLawEfficiency); got != 1980.0/(4000.0/2) {
		t.Errorf("Little's-law efficiency = %v", got)
	}

	only := &Summary{BackendLatencyS: 2, Scenarios: []Scenario{{Name: "async-profile", Steps: []Step{step(10, 5, 2, 5, 5)}}}}
	only.ComputeHeadline()
	if only.Headline.ThroughputRatio != nil || only.Headline.Note == "" || deref(only.Headline.AsyncLittlesLawEfficiency) != 1 {
		t.Errorf("async-only headline = %+v", only.Headline)
	}
}

func TestComputeUploadHeadline(t *testing.T) {
	s := &Summary{BackendLatencyS: 2, UploadBackendLatencyS: 0.05, Scenarios: []Scenario{
		{Name: "sync-profile", Steps: []Step{step(4000, 50, 60, 1000, 900)}},
		{Name: "async-profile", Steps: []Step{step(4000, 2000, 2, 40000, 40000)}},
		{Name: "sync-upload", APIRSSMaxBytes: ptr(300e6), Steps: []Step{step(1, 19, 0.05, 19, 19), step(4000, 2000, 1.5, 30000, 20000)}},
		{Name: "async-upload", APIRSSMaxBytes: ptr(700e6), Steps: []Step{step(4000, 2500, 1.6, 25001, 25000)}},
	}}
	s.ComputeHeadline()
	u := s.UploadHeadline
	if !s.HasUploadHeadline() || u.Users != 4000 || deref(u.ThroughputRatio) != 2500.0/2000 || deref(u.MeanLatencyRatio) != 1.5/1.6 {
		t.Errorf("upload headline = %+v", u)
	}
	if u.AsyncErrors != 1 || u.Sync503 != 10000 || deref(u.APIRSSMaxMB) != 700 {
		t.Errorf("errors %d, 503s %d, API RSS max %s MB", u.AsyncErrors, u.Sync503, Fig(u.APIRSSMaxMB, 0))
	}
	if got, want := deref(u.AsyncLittlesLawEfficiency), 2500/(4000/0.05); got != want {
		t.Errorf("upload Little's-law efficiency %v, want %v (users ÷ storage time)", got, want)
	}
	if deref(s.Headline.ThroughputRatio) != 40 {
		t.Errorf("the profile headline changed: %+v", s.Headline)
	}
	var table bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Headline at 4000 users", "Upload headline at 4000 users", "throughput ratio 1.2x", "API's own RSS peaked at 700 MB"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	var md bytes.Buffer
	if err := s.WriteMarkdown(&md, nil); err != nil || !strings.Contains(md.String(), "Upload headline at 4000 users") {
		t.Errorf("summary.md lacks the upload headline (%v)", err)
	}

	none := &Summary{Scenarios: []Scenario{{Name: "sync-profile", Steps: []Step{step(4000, 50, 60, 1000, 900)}}}}
	none.ComputeHeadline()
	var nt bytes.Buffer
	if err := none.WriteTable(&nt); err != nil || none.HasUploadHeadline() || strings.Contains(nt.String(), "Upload headline") {
		t.Errorf("no upload pair, yet an upload headline: %s", nt.String())
	}
	// Nor in summary.json: an all-zero upload headline would read as measured.
	raw, err := json.Marshal(none)
	if err != nil || none.UploadHeadline != nil || strings.Contains(string(raw), "upload_headline") {
		t.Errorf("summary.json of a run without uploads has an upload headline: %s", raw)
	}
}

// TestSummaryJSONSchema checks every key the schema names.
func TestSummaryJSONSchema(t *testing.T) {
	// With an upload scenario: the upload headline is there only when one ran.
	s := &Summary{Profile: "quick", BackendLatencyS: 2, Scenarios: []Scenario{{Name: "sync-profile", Path: "/api/sync/profile", Steps: []Step{step(4000, 50, 60, 10, 9)}},
		{Name: "sync-upload", Path: "/api/sync/upload", Steps: []Step{step(4000, 50, 1, 10, 9)}}}}
	s.ComputeHeadline()
	path := filepath.Join(t.TempDir(), SummaryFile)
	if err := s.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	requireKeys(t, "top level", top, "profile", "backend_latency_s", "scenarios", "headline")
	var scen []map[string]json.RawMessage
	mustUnmarshal(t, top["scenarios"], &scen)
	requireKeys(t, "scenario", scen[0], "name", "path", "steps")
	var steps []map[string]json.RawMessage
	mustUnmarshal(t, scen[0]["steps"], &steps)
	requireKeys(t, "step", steps[0], "users", "duration_s", "requests", "ok", "status_503", "errors",
		"throughput_rps", "latency_mean_s", "latency_p50_s", "latency_p95_s", "latency_p99_s", "latency_max_s",
		"queue_length_max", "workers_busy_mean", "server_rss_bytes")
	var head map[string]json.RawMessage
	mustUnmarshal(t, top["headline"], &head)
	requireKeys(t, "headline", head, "users", "throughput_ratio", "mean_latency_ratio", "async_littles_law_efficiency", "async_errors")
	requireKeys(t, "top level", top, "upload_headline")
	var up map[string]json.RawMessage
	mustUnmarshal(t, top["upload_headline"], &up)
	requireKeys(t, "upload_headline", up, "users", "throughput_ratio", "mean_latency_ratio", "async_littles_law_efficiency", "async_errors",
		"sync_throughput_rps", "async_throughput_rps", "sync_latency_mean_s", "async_latency_mean_s", "sync_status_503", "api_rss_max_mb")

	back, err := ReadJSON(path)
	if err != nil || back.Scenarios[0].Steps[0].Users != 4000 || back.Profile != "quick" {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

func requireKeys(t *testing.T, what string, m map[string]json.RawMessage, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: key %q missing", what, k)
		}
	}
}

func TestWriteCSVAndTable(t *testing.T) {
	blocked := step(4000, 50, 60, 1000, 900)
	hundred := 100.0
	blocked.BlockedHoldingWorker = &hundred
	s := &Summary{BackendLatencyS: 2, Scenarios: []Scenario{
		{Name: "sync-profile", Path: "/api/sync/profile", Steps: []Step{step(1, 0.5, 2, 10, 10), blocked}},
		{Name: "async-profile", Path: "/api/async/profile", Steps: []Step{step(1, 0.5, 2, 10, 10), step(4000, 1980, 2.02, 39600, 39600)}},
	}}
	s.ComputeHeadline()
	var buf bytes.Buffer
	if err := s.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || rows[0][0] != "scenario" || rows[4][0] != "async-profile" || rows[4][3] != "4000" {
		t.Errorf("csv rows = %v", rows)
	}
	for _, r := range rows {
		if len(r) != len(csvHeader) {
			t.Errorf("row %v has %d fields, header %d", r, len(r), len(csvHeader))
		}
	}
	buf.Reset()
	if err := s.WriteTable(&buf); err != nil {
		t.Fatal(err)
	}
	if got := rows[1][slices.Index(csvHeader, "blocked_holding_worker_mean")]; got != "" {
		t.Errorf("blocked_holding_worker_mean of a step without a watcher = %q, want empty", got)
	}
	if !strings.Contains(buf.String(), "throughput ratio 39.6x") {
		t.Errorf("table lacks the headline ratio:\n%s", buf.String())
	}
	buf.Reset()
	if err := s.WriteMarkdown(&buf, []string{"throughput.png"}); err != nil {
		t.Fatal(err)
	}
	if md := buf.String(); !strings.Contains(md, "![throughput](throughput.png)") || strings.Count(md, "| sync-profile |") != 2 ||
		!strings.Contains(md, "| busy mean | blocked+worker |") || !strings.Contains(md, " | 100.0 | ") || !strings.Contains(md, " | – | ") {
		t.Errorf("markdown:\n%s", md)
	}
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// writeRun writes a results folder as a load generator would: one scenario
// with one 10 s window, its results and its summary.
// writeRun writes a one-step result folder; busy < 0 stands for a run that
// took no /metrics samples (-scrape 0), so it knows neither pool size nor load.
func writeRun(t *testing.T, dir string, start time.Time, users int, latencies []time.Duration, rejected int, busy float64) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "async-profile.bin"))
	if err != nil {
		t.Fatal(err)
	}
	enc := vegeta.NewEncoder(f)
	seq := uint64(0)
	add := func(r vegeta.Result) {
		r.Attack, r.Seq = "async-profile", seq
		seq++
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	add(vegeta.Result{Code: 200, Timestamp: start, Latency: time.Second}) // ends before the window
	for i, l := range latencies {
		add(vegeta.Result{Code: 200, Timestamp: start.Add(10*time.Second + time.Duration(i)*time.Millisecond), Latency: l})
	}
	for i := 0; i < rejected; i++ {
		add(vegeta.Result{Code: 503, Error: "503 Service Unavailable", Timestamp: start.Add(12 * time.Second), Latency: time.Millisecond})
	}
	f.Close()
	s := &Summary{Profile: "quick", BackendLatencyS: 2, StartedAt: start, Scenarios: []Scenario{{
		Name: "async-profile", Path: "/api/async/profile", ResultsFile: "async-profile.bin",
		Steps: []Step{{Index: 1, Users: users, DurationS: 10, WindowStart: start.Add(10 * time.Second), WindowEnd: start.Add(20 * time.Second), QueueLengthMax: ptr(float64(users)), WorkersBusyMean: busyIf(busy), Workers: workersIf(busy >= 0),
			BlockedHoldingWorker: busyIf(busy), ServerRSSBytes: busyIf(busy), GeneratorRSSBytes: float64(users) * 1e6}},
		GeneratorRSSMaxBytes: float64(users) * 2e6,
	}}}
	if err := s.WriteJSON(filepath.Join(dir, SummaryFile)); err != nil {
		t.Fatal(err)
	}
}

func TestMergeFolders(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	// Machine b's clock is an hour off: windows are per folder.
	writeRun(t, a, t0, 100, []time.Duration{time.Second, time.Second}, 1, 10)
	writeRun(t, b, t0.Add(time.Hour), 300, []time.Duration{3 * time.Second, 3 * time.Second, 5 * time.Second}, 0, 30)
	// c took no /metrics samples: it must not drag the busy mean down.
	c := filepath.Join(base, "c")
	writeRun(t, c, t0, 100, []time.Duration{time.Second}, 0, -1)

	s, err := Merge([]string{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	st := s.Scenarios[0].Steps[0]
	if st.Users != 500 || st.Requests != 7 || st.OK != 6 || st.Status503 != 1 {
		t.Errorf("merged counts = %+v", st)
	}
	if st.ThroughputRPS != 0.6 { // (2 + 3 + 1) OK over 10 s windows
		t.Errorf("merged throughput = %v, want 0.6", st.ThroughputRPS)
	}
	if deref(st.LatencyMeanS) != 14.0/6 || deref(st.LatencyMaxS) != 5 || deref(st.LatencyP50S) != 1 {
		t.Errorf("merged latencies mean %s p50 %s max %s", Fig(st.LatencyMeanS, 3), Fig(st.LatencyP50S, 3), Fig(st.LatencyMaxS, 3))
	}
	if deref(st.QueueLengthMax) != 300 || deref(st.WorkersBusyMean) != 20 { // (10 + 30) / 2; c not counted
		t.Errorf("merged server figures: queue %v busy %v", Fig(st.QueueLengthMax, 1), Fig(st.WorkersBusyMean, 1))
	}
	// The blocked column is the one API's (the highest any folder read),
	// and the generator's RSS the largest generator's: neither is dropped.
	if deref(st.BlockedHoldingWorker) != 30 || st.GeneratorRSSBytes != 300e6 || s.Scenarios[0].GeneratorRSSMaxBytes != 600e6 {
		t.Errorf("merged blocked %s, gen RSS %v, scenario gen RSS max %v; want 30, 300e6, 600e6", Fig(st.BlockedHoldingWorker, 1), st.GeneratorRSSBytes, s.Scenarios[0].GeneratorRSSMaxBytes)
	}
	if len(s.Sources) != 3 {
		t.Errorf("sources = %v", s.Sources)
	}
	// The API's RSS is known if any folder read it; c's unknown is not a 0.
	if deref(st.ServerRSSBytes) != 30 {
		t.Errorf("merged API RSS %s, want 30", Fig(st.ServerRSSBytes, 0))
	}
	onlyC, err := Merge([]string{c})
	if err != nil {
		t.Fatal(err)
	}
	if got := onlyC.Scenarios[0].Steps[0]; got.ServerRSSBytes != nil || got.ServerCPUCores != nil || got.ServerGoroutines != nil {
		t.Errorf("a folder that read no /metrics merged to RSS %s, cores %s, goroutines %s; want unknown",
			Fig(got.ServerRSSBytes, 0), Fig(got.ServerCPUCores, 2), Fig(got.ServerGoroutines, 0))
	}

	if _, err := Merge(nil); err == nil {
		t.Error("Merge of nothing succeeded")
	}
	if _, err := Merge([]string{filepath.Join(base, "missing")}); err == nil {
		t.Error("Merge of a missing folder succeeded")
	}
}

func TestWritePlotFillsSequenceGaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.bin")
	f, _ := os.Create(path)
	enc := vegeta.NewEncoder(f)
	// Seq 2 is missing (cut short at the end of a run) and results are in
	// completion order; without renumbering vegeta's plot would drop 3..5.
	for _, seq := range []uint64{1, 0, 3, 5, 4} {
		r := vegeta.Result{Attack: "x", Seq: seq, Code: 200, Timestamp: t0.Add(time.Duration(seq) * time.Second), Latency: time.Duration(seq+1) * 100 * time.Millisecond}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	var buf bytes.Buffer
	if err := WritePlot(&buf, "test plot", []PlotSource{{Path: path, Attack: "machine-a"}}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if !strings.Contains(html, "test plot") || !strings.Contains(html, "machine-a: OK") {
		t.Fatalf("plot lacks title or series label")
	}
	// Latencies in ms: every present result is plotted, including 600 ms (seq 5).
	for _, v := range []string{"100", "200", "400", "500", "600"} {
		if !strings.Contains(html, ","+v+"]") && !strings.Contains(html, ","+v+",") {
			t.Errorf("latency %s ms missing from the plot data", v)
		}
	}
}

// The open loop starts a vegeta attacker per step, and each numbers its
// results from 0: a scenario's file holds several runs of 0, 1, 2, ...
// under one attack name, with send times that interleave at the step's
// edge. Numbered by sequence number the plot failed ("non monotonically
// increasing timestamp") or lost results, and the run exited 1.
func TestWritePlotTakesRestartingSequences(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.bin")
	f, _ := os.Create(path)
	enc := vegeta.NewEncoder(f)
	add := func(seq uint64, at time.Duration, ms int) {
		r := vegeta.Result{Attack: "open", Seq: seq, Code: 200, Timestamp: t0.Add(at), Latency: time.Duration(ms) * time.Millisecond}
		if err := enc.Encode(&r); err != nil {
			t.Fatal(err)
		}
	}
	// Step 1's attacker: seq 0..3 at 0-3 s; step 2's: seq 0..3 from 3.5 s,
	// its first result written before step 1's last (completion order).
	add(0, 0, 101)
	add(1, time.Second, 102)
	add(2, 2*time.Second, 103)
	add(0, 3500*time.Millisecond, 201)
	add(3, 3*time.Second, 104)
	add(1, 4*time.Second, 202)
	add(2, 5*time.Second, 203)
	add(3, 6*time.Second, 204)
	f.Close()
	var buf bytes.Buffer
	if err := WritePlot(&buf, "restarts", []PlotSource{{Path: path}}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, v := range []string{"101", "102", "103", "104", "201", "202", "203", "204"} {
		if !strings.Contains(html, ","+v+"]") && !strings.Contains(html, ","+v+",") {
			t.Errorf("latency %s ms missing from the plot data", v)
		}
	}
}

func mustUnmarshal(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("summary.json: %v", err)
	}
}

func workersIf(scraped bool) *float64 {
	if scraped {
		return ptr(100)
	}
	return nil
}

// busyIf is the busy mean of a folder that read it (busy >= 0), or unknown.
func busyIf(busy float64) *float64 {
	if busy < 0 {
		return nil
	}
	return ptr(busy)
}

// TestSaturatedHeadline: the headline warns only when a side other than
// the service set the figures, and names it: a generator using nearly every
// core, or other processes taking a busy host's CPU. A CPU-bound service on
// the same host, or a host with room, gives no warning (it used to fire on
// every shared-box run, blaming the generator at 0-8% CPU).
func TestSaturatedHeadline(t *testing.T) {
	mk := func(idle, gen float64, svcCores *float64) *Summary {
		s := &Summary{Machine: Machine{CPUs: 2}, Target: "http://127.0.0.1:8090", Pair: &Pair{Baseline: "held", Candidate: "released"}, Scenarios: []Scenario{
			{Name: "held", Steps: []Step{{Index: 1, Users: 1, ThroughputRPS: 9, LatencyMeanS: ptr(0.1)}, {Index: 2, Users: 1000, ThroughputRPS: 190, LatencyMeanS: ptr(1), HostCPUIdle: ptr(0.5), GeneratorCPU: ptr(0.2)}}},
			{Name: "released", Steps: []Step{{Index: 1, Users: 1, ThroughputRPS: 9, LatencyMeanS: ptr(0.1)}, {Index: 2, Users: 1000, ThroughputRPS: 900, LatencyMeanS: ptr(0.7), HostCPUIdle: ptr(idle), GeneratorCPU: ptr(gen), ServerCPUCores: svcCores}}},
		}}
		s.ComputeHeadline()
		return s
	}
	const warn = "WARNING: not the service's limit in step 2 of released ("
	for _, c := range []struct {
		name      string
		idle, gen float64
		svcCores  *float64
		want      string // "" for no warning
	}{
		{"generator at 95%", 0.3, 0.95, ptr(0.2), "the load generator used 95% of all cores"},
		{"neighbours", 0.04, 0.05, ptr(0.3), "other processes on the host used about 76% of all cores (the generator 5%, the service 15%, 4% idle)"},
		{"generator most of a busy host", 0.05, 0.6, ptr(0.4), "the load generator used 60% of all cores on a host 5% idle (the service 20%)"},
		{"service unknown", 0.04, 0.05, nil, "the host had 4% CPU idle and the service's CPU is not known here"},
		{"CPU-bound service", 0.03, 0.08, ptr(1.8), ""},
		{"room to spare", 0.4, 0.5, ptr(0.2), ""},
	} {
		s := mk(c.idle, c.gen, c.svcCores)
		got := s.HeadlineText()
		if c.want == "" {
			if strings.Contains(got, "WARNING") || s.Headline.Saturated != "" {
				t.Errorf("%s: headline %q, want no warning", c.name, got)
			}
			continue
		}
		if !strings.Contains(got, warn+c.want) {
			t.Errorf("%s: headline %q, want %q", c.name, got, warn+c.want)
		}
	}
	var table strings.Builder
	if err := mk(0.04, 0.05, ptr(0.3)).WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "gen CPU %") || !strings.Contains(table.String(), warn+"other processes") {
		t.Errorf("table:\n%s", table.String())
	}
}

// TestFewWatcherSamplesWarns: a step whose blocked+worker figure is
// unknown for want of samples is counted in a warning that says what to
// do; a run where every step had its figure has none.
func TestFewWatcherSamplesWarns(t *testing.T) {
	two, one := 2.0, 1.0
	s := &Summary{Scenarios: []Scenario{{Steps: []Step{
		{BlockedMissing: "2 blocking-watcher samples in the window, 5 needed", WatcherSamples: &two},
		{BlockedMissing: "1 blocking-watcher samples in the window, 5 needed", WatcherSamples: &one},
		{BlockedHoldingWorker: &one},
	}}}}
	w := s.FewWatcherSamples()
	for _, want := range []string{"2 of 3 steps read –", "fewest 1", "-blockwatch-budget"} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q lacks %q", w, want)
		}
	}
	if w := (&Summary{Scenarios: []Scenario{{Steps: []Step{{BlockedHoldingWorker: &one}}}}}).FewWatcherSamples(); w != "" {
		t.Errorf("every figure known, yet warned %q", w)
	}
}
