package loadtest

import (
	"context"
	"encoding/csv"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncio/syncio/loadtest/dashboard"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/scrape"
)

// slotService is a service that is not the demo: /held keeps one of two
// slots across its 40 ms wait (503 when none is free), /free waits without
// one, /broken answers 500, and /stats exposes the slots under names of
// its own.
func slotService(t *testing.T) *httptest.Server {
	slots := make(chan struct{}, 2)
	var busy atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /held", func(w http.ResponseWriter, r *http.Request) {
		select {
		case slots <- struct{}{}:
		default:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		busy.Add(1)
		time.Sleep(40 * time.Millisecond)
		busy.Add(-1)
		<-slots
	})
	mux.HandleFunc("POST /free", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Key") != "k" {
			http.Error(w, "no key", http.StatusForbidden)
			return
		}
		time.Sleep(40 * time.Millisecond)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "app_slots_in_use %d\napp_slots 2\n", busy.Load())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func given(t *testing.T, specs ...string) []Scenario {
	t.Helper()
	var out []Scenario
	for _, s := range specs {
		sc, err := ParseEndpoint(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sc)
	}
	return out
}

func TestRunGivenEndpoints(t *testing.T) {
	srv := slotService(t)
	dir := t.TempDir()
	scs := WithRequest(given(t, "held=GET /held", "free=POST "+srv.URL+"/free", "broken=GET /broken"), http.Header{"X-Key": {"k"}}, nil)
	var mu sync.Mutex
	var points []dashboard.Point
	sum, err := Run(context.Background(), Config{
		Live: func(p dashboard.Point) {
			mu.Lock()
			defer mu.Unlock()
			points = append(points, p)
		},
		BaseURL: srv.URL, Profile: tinyProfile(), Scenarios: scs, OutDir: dir,
		ScrapeInterval: 20 * time.Millisecond, MetricsURL: srv.URL + "/stats",
		MetricNames: scrape.Names{Busy: "app_slots_in_use", Workers: "app_slots"},
		Drain:       time.Second, BackendLatency: 10 * time.Millisecond, MaxRetryAfter: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Scenarios) != 3 || sum.Pair == nil || sum.Pair.Baseline != "held" || sum.Pair.Candidate != "free" {
		t.Fatalf("scenarios %d, pair %+v", len(sum.Scenarios), sum.Pair)
	}
	held, free, broken := sum.Scenarios[0].Steps, sum.Scenarios[1].Steps, sum.Scenarios[2].Steps
	// Whether your endpoint holds a worker is what the run is for: the
	// lab does not know it beforehand, so summary.json says null.
	if sum.Scenarios[0].Blocking != nil {
		t.Errorf("a given endpoint's blocking = %v, want unknown", *sum.Scenarios[0].Blocking)
	}
	top := len(held) - 1
	// 12 users against two slots: the held endpoint turns most away, the
	// free one serves everyone (and got the -header, or it would be 403).
	if held[top].Status503 == 0 || free[top].OK == 0 || free[top].Errors != 0 {
		t.Errorf("top steps: held %+v, free %+v", held[top], free[top])
	}
	if r := sum.Headline.ThroughputRatio; r == nil || *r <= 1 || sum.Headline.Users != 12 {
		t.Errorf("headline %+v: the free endpoint should out-run the held one", sum.Headline)
	}
	if want := *free[0].LatencyMeanS; sum.Pair.LittlesLawLatencyS != want || want < 0.04 {
		t.Errorf("Little's-law latency %v, want the candidate's first-step mean %v (>= 40 ms)", sum.Pair.LittlesLawLatencyS, want)
	}
	if sum.BackendLatencyS != 0 || sum.Storage != nil {
		t.Errorf("the demo's backend latency or storage leaked into the summary: %v %+v", sum.BackendLatencyS, sum.Storage)
	}
	// The slots were read from the service's own gauge names.
	var busyMax float64
	for _, st := range held {
		if st.WorkersBusyMean != nil {
			busyMax = max(busyMax, *st.WorkersBusyMean)
		}
		if st.Workers == nil || *st.Workers != 2 {
			t.Errorf("held step %d: workers %s, want app_slots = 2", st.Index, report.Fig(st.Workers, 0))
		}
		// /stats has no queue gauge and -metric-queue was left at the
		// demo's name: unknown, not an empty queue.
		if st.QueueLengthMax != nil {
			t.Errorf("held step %d: queue %v from a gauge the service does not have", st.Index, *st.QueueLengthMax)
		}
	}
	if busyMax == 0 {
		t.Error("no busy slots read from app_slots_in_use")
	}
	// A target that answers 500 to everything: the run went on and the
	// report shows the errors.
	// (After an error a user backs off for a second, so a short step may
	// see none; the run as a whole must.)
	var requests, errs int
	for _, st := range broken {
		requests += st.Requests
		errs += st.Errors
		if st.OK != 0 {
			t.Errorf("broken step %d: %d OK", st.Index, st.OK)
		}
	}
	if requests == 0 || errs != requests {
		t.Errorf("broken endpoint: %d errors of %d requests, want all", errs, requests)
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"baseline held, candidate free", "| broken | 12 |", "free's mean latency at the first step"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	for _, f := range []string{"held.bin", "free.bin", "broken.bin", "throughput.png", "steps.csv", "plot.html"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// The live feed: points for every scenario, in run order, the held
	// endpoint's with the slots it read, the broken one's with errors.
	mu.Lock()
	defer mu.Unlock()
	seen := map[string]int{}
	var order []string
	var heldBusy, brokenErrs bool
	for _, p := range points {
		if seen[p.Scenario] == 0 {
			order = append(order, p.Scenario)
		}
		seen[p.Scenario]++
		// /stats has no queue gauge: the points leave it out.
		if p.Scenario == "held" && p.WorkersBusy != nil && p.QueueLength == nil && p.Workers != nil && *p.Workers == 2 {
			heldBusy = true
		}
		// A scenario's server figures are its own: never a sample taken
		// before it started (the previous scenario's last scrape).
		for _, sc := range sum.Scenarios {
			if sc.Name == p.Scenario && p.ServerAt != nil && p.ServerAt.Before(sc.StartedAt) {
				t.Errorf("%s point at %v shows a sample from %v, before the scenario started at %v", p.Scenario, p.Time, *p.ServerAt, sc.StartedAt)
			}
		}
		if p.Steps != 3 || p.ETAS < 0 {
			t.Errorf("point %+v: want 3 steps (the tiny profile) and an ETA", p)
		}
		if p.Scenario == "broken" && p.ErrorsPerS > 0 && p.OKPerS == 0 {
			brokenErrs = true
		}
		if p.Users < 0 || p.OKPerS < 0 || (p.LatencyP99S == nil) != (p.LatencyP50S == nil) || p.LatencyP99S != nil && *p.LatencyP99S < *p.LatencyP50S {
			t.Errorf("point %+v", p)
		}
	}
	if strings.Join(order, ",") != "held,free,broken" || !heldBusy || !brokenErrs {
		t.Errorf("live points: order %v, held busy %v, broken errors %v (%d points)", order, heldBusy, brokenErrs, len(points))
	}

	// `report` redraws the same headline from the folder.
	out := t.TempDir()
	if err := Report([]string{dir}, out, nil); err != nil {
		t.Fatal(err)
	}
	again, err := report.ReadJSON(filepath.Join(out, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if again.Pair == nil || again.Pair.Candidate != "free" || report.Fig(again.Headline.ThroughputRatio, 6) != report.Fig(sum.Headline.ThroughputRatio, 6) {
		t.Errorf("report: pair %+v, ratio %s, run's %s", again.Pair, report.Fig(again.Headline.ThroughputRatio, 6), report.Fig(sum.Headline.ThroughputRatio, 6))
	}
}

func TestRunUnreachableTargetFailsBeforeAnyStep(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	dir := filepath.Join(t.TempDir(), "out")
	start := time.Now()
	sum, err := Run(context.Background(), Config{
		BaseURL: "http://" + addr, Profile: tinyProfile(), Scenarios: given(t, "a=GET /a"), OutDir: dir,
	})
	if err == nil || !strings.Contains(err.Error(), "unreachable") || !strings.Contains(err.Error(), addr) {
		t.Fatalf("err = %v, want unreachable naming %s", err, addr)
	}
	if sum != nil {
		t.Errorf("summary %+v from a run that never started", sum)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("results folder created before the check: %v", err)
	}
	if d := time.Since(start); d > tinyProfile().Warmup+5*time.Second {
		t.Errorf("took %v: the check should come before any step", d)
	}
}

// TestRunWithoutServerMetrics: a service of the user's own with no
// -metrics gets "–" for the server's columns, not zeros that read as
// measured, and the load generator's own RSS is still sampled.
func TestRunWithoutServerMetrics(t *testing.T) {
	srv := slotService(t)
	dir := t.TempDir()
	scs := WithRequest(given(t, "free=POST /free"), http.Header{"X-Key": {"k"}}, nil)
	sum, err := Run(context.Background(), Config{
		BaseURL: srv.URL, Profile: tinyProfile(), Scenarios: scs, OutDir: dir, NoMetrics: true,
		ScrapeInterval: 20 * time.Millisecond, Drain: time.Second, BackendLatency: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !sum.NoServerMetrics {
		t.Error("NoServerMetrics is false for a run that read no /metrics")
	}
	var genRSS float64
	for _, st := range sum.Scenarios[0].Steps {
		genRSS = max(genRSS, st.GeneratorRSSBytes)
	}
	if genRSS == 0 {
		t.Error("the load generator's RSS was not sampled")
	}
	// Its CPU too, per step, as a share of the machine's cores.
	for _, st := range sum.Scenarios[0].Steps {
		if st.GeneratorCPU == nil || *st.GeneratorCPU <= 0 || *st.GeneratorCPU > 1.01 {
			t.Errorf("step %d: generator CPU %s, want a share in (0, 1]", st.Index, report.Fig(st.GeneratorCPU, 3))
		}
		if _, err := os.Stat("/proc/stat"); err == nil && st.HostCPUIdle == nil {
			t.Errorf("step %d: host CPU idle not read from /proc/stat", st.Index)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| – | – | – | – |") || strings.Contains(string(md), "| 0 | 0.0 | 0 | 0.00 |") {
		t.Errorf("summary.md shows unknown server figures as numbers:\n%s", md)
	}
	back, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil || !back.NoServerMetrics {
		t.Errorf("summary.json: no_server_metrics lost (%v)", err)
	}
}

// TestRunMissingServerFigures: a -metrics URL that does not answer, or a
// selector that matches no series, shows "–" in the table and null in
// summary.json, and the summary names the cause once.
func TestRunMissingServerFigures(t *testing.T) {
	srv := slotService(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/metrics"
	ln.Close()
	for _, c := range []struct {
		name, url string
		names     scrape.Names
		want      string
	}{
		{"unreachable", dead, scrape.Names{Busy: "app_slots_in_use", Workers: "app_slots"}, dead},
		{"typo", srv.URL + "/stats", scrape.Names{Busy: "app_slots_in_us", Workers: "app_slots", Queue: "app_slots"}, "-metric-busy app_slots_in_us matched no series"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			sum, err := Run(context.Background(), Config{
				BaseURL: srv.URL, Profile: tinyProfile(), Scenarios: given(t, "held=GET /held"), OutDir: dir,
				ScrapeInterval: 20 * time.Millisecond, MetricsURL: c.url, MetricNames: c.names,
				Drain: time.Second, BackendLatency: 10 * time.Millisecond, MaxRetryAfter: 100 * time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			// (The typo case's /stats has no process metrics either: those
			// warnings are TestRunWithoutProcessCollectors'.)
			n := 0
			for _, w := range sum.Warnings {
				if strings.Contains(w, c.want) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("warnings %q, want one containing %q", sum.Warnings, c.want)
			}
			for _, st := range sum.Scenarios[0].Steps {
				if st.WorkersBusyMean != nil {
					t.Errorf("step %d: busy mean %v, want unknown", st.Index, *st.WorkersBusyMean)
				}
			}
			var table strings.Builder
			if err := sum.WriteTable(&table); err != nil {
				t.Fatal(err)
			}
			row := strings.Fields(strings.Split(table.String(), "\n")[1])
			// The busy mean column (17th) reads "–", not 0.0.
			if len(row) < 17 || row[16] != "–" {
				t.Errorf("table row %q: busy mean is not –", row)
			}
			raw, err := os.ReadFile(filepath.Join(dir, report.SummaryFile))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), `"workers_busy_mean": null`) || !strings.Contains(string(raw), c.want) {
				t.Errorf("summary.json does not say busy is unknown, or why")
			}
		})
	}
}

// TestRunWithoutProcessCollectors: a service whose /metrics has its pool
// gauges but not client_golang's process and Go collectors gets "–" for
// API RSS, API cores and goroutines in the table, summary.md and a
// redrawn report, null in summary.json and an empty cell in steps.csv,
// and a warning naming each absent metric; they used to read 0.
func TestRunWithoutProcessCollectors(t *testing.T) {
	srv := slotService(t)
	dir := t.TempDir()
	sum, err := Run(context.Background(), Config{
		BaseURL: srv.URL, Profile: tinyProfile(), Scenarios: given(t, "held=GET /held"), OutDir: dir,
		ScrapeInterval: 20 * time.Millisecond, MetricsURL: srv.URL + "/stats",
		MetricNames: scrape.Names{Busy: "app_slots_in_use", Workers: "app_slots", Queue: "app_slots_in_use"},
		Drain:       time.Second, BackendLatency: 10 * time.Millisecond, MaxRetryAfter: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{scrape.MetricRSS, scrape.MetricCPU, scrape.MetricGoroutines} {
		if !strings.Contains(strings.Join(sum.Warnings, "\n"), m+" is not in "+srv.URL+"/stats") {
			t.Errorf("warnings %q do not name %s", sum.Warnings, m)
		}
	}
	for _, st := range sum.Scenarios[0].Steps {
		if st.ServerRSSBytes != nil || st.ServerCPUCores != nil || st.ServerGoroutines != nil || st.WorkersBusyMean == nil {
			t.Errorf("step %d: RSS %s, cores %s, goroutines %s, busy %s; want the process figures unknown and busy read", st.Index,
				report.Fig(st.ServerRSSBytes, 0), report.Fig(st.ServerCPUCores, 2), report.Fig(st.ServerGoroutines, 0), report.Fig(st.WorkersBusyMean, 1))
		}
	}
	if sc := sum.Scenarios[0]; sc.APIRSSMaxBytes != nil || sc.APICores != nil || sc.APICPUS != nil {
		t.Errorf("scenario: API RSS %s, cores %s, CPU %s; want unknown", report.Fig(sc.APIRSSMaxBytes, 0), report.Fig(sc.APICores, 2), report.Fig(sc.APICPUS, 1))
	}
	// The table's API RSS MB, API cores and goroutines columns (19th to
	// 21st), in the run's table and in one redrawn by syncio-load report.
	checkTable := func(what string, s *report.Summary) {
		t.Helper()
		var table strings.Builder
		if err := s.WriteTable(&table); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(table.String(), "\n")
		if !regexp.MustCompile(`busy mean\s+blocked\+worker\s+API RSS MB\s+API cores\s+goroutines\s+gen RSS MB`).MatchString(lines[0]) {
			t.Fatalf("%s: header %q: columns moved", what, lines[0])
		}
		if row := strings.Fields(lines[1]); len(row) < 21 || row[16] == "–" || strings.Join(row[18:21], " ") != "– – –" {
			t.Errorf("%s: row %q: want busy read and – for API RSS, cores, goroutines", what, row)
		}
	}
	checkTable("run", sum)
	raw, err := os.ReadFile(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"server_rss_bytes": null`, `"server_cpu_cores": null`, `"server_goroutines": null`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	if strings.Contains(string(raw), `"api_rss_max_bytes"`) {
		t.Error("summary.json has api_rss_max_bytes for a service that does not export it")
	}
	csvRaw, err := os.ReadFile(filepath.Join(dir, "steps.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(csvRaw))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	for _, name := range []string{"server_rss_bytes", "server_goroutines", "server_cpu_cores"} {
		if i := col(name); i < 0 || rows[1][i] != "" {
			t.Errorf("steps.csv %s = %q, want an empty cell", name, rows[1][max(i, 0)])
		}
	}
	redrawn := filepath.Join(t.TempDir(), "redrawn")
	if err := Report([]string{dir}, redrawn, nil); err != nil {
		t.Fatal(err)
	}
	back, err := report.ReadJSON(filepath.Join(redrawn, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	checkTable("report", back)
	md, err := os.ReadFile(filepath.Join(redrawn, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), scrape.MetricRSS+" is not in") {
		t.Errorf("the redrawn summary.md lost the warning:\n%s", md)
	}
}
