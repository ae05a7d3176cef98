package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
	"github.com/syncio/syncio/loadtest/scrape"
)

// fakeAPI mimics the demo API's pool in miniature: a request runs on one
// of the workers or waits in a bounded queue (503 + Retry-After when both
// are full). Sync handlers hold a worker for the whole latency; async ones
// hold it only to start and, as a continuation that skips admission, to
// finish. /metrics exposes the pool gauges.
type fakeAPI struct {
	workers  chan struct{}
	queue    chan struct{}
	latency  time.Duration
	busy     atomic.Int64
	rejected atomic.Int64
}

func newFakeAPI(workers, queue int, latency time.Duration) *httptest.Server {
	f := &fakeAPI{workers: make(chan struct{}, workers), queue: make(chan struct{}, queue), latency: latency}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/sync/profile", func(w http.ResponseWriter, r *http.Request) {
		if !f.admit(w) {
			return
		}
		f.run(func() { time.Sleep(f.latency) })
		_, _ = w.Write([]byte(`{"FirstName":"Alton"}`))
	})
	mux.HandleFunc("GET /api/async/profile", func(w http.ResponseWriter, r *http.Request) {
		if !f.admit(w) {
			return
		}
		f.run(func() {})
		time.Sleep(f.latency) // no worker held while waiting
		f.workers <- struct{}{}
		f.run(func() {})
		_, _ = w.Write([]byte(`{"FirstName":"Alton"}`))
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "syncio_pool_workers %d\nsyncio_pool_workers_busy %d\nsyncio_pool_queue_length %d\nsyncio_pool_rejected_total %d\ngo_goroutines 10\nprocess_resident_memory_bytes 1e7\n",
			cap(f.workers), f.busy.Load(), len(f.queue), f.rejected.Load())
	})
	return httptest.NewServer(mux)
}

// admit takes a worker, or waits for one in the queue, or rejects.
func (f *fakeAPI) admit(w http.ResponseWriter) bool {
	select {
	case f.workers <- struct{}{}:
		return true
	default:
	}
	select {
	case f.queue <- struct{}{}:
		f.workers <- struct{}{}
		<-f.queue
		return true
	default:
		f.rejected.Add(1)
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		return false
	}
}

// run does fn on the worker the caller holds, then frees it.
func (f *fakeAPI) run(fn func()) {
	f.busy.Add(1)
	fn()
	f.busy.Add(-1)
	<-f.workers
}

func tinyProfile() schedule.Profile {
	return schedule.Profile{
		Name: "tiny", Users: []int{1, 4, 12},
		Settle: 100 * time.Millisecond, Measure: 300 * time.Millisecond,
		TopSettleBlocking: 300 * time.Millisecond, TopSettleAsync: 200 * time.Millisecond, TopMeasure: 500 * time.Millisecond,
	}
}

func TestRunEndToEnd(t *testing.T) {
	srv := newFakeAPI(2, 4, 50*time.Millisecond)
	defer srv.Close()
	sel, err := Select("headline")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := Run(context.Background(), Config{
		BaseURL: srv.URL, Profile: tinyProfile(), Scenarios: sel, OutDir: dir,
		ScrapeInterval: 20 * time.Millisecond, Drain: 5 * time.Second, BackendLatency: 50 * time.Millisecond,
		MaxRetryAfter: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"summary.json", "summary.md", "steps.csv", "plot.html", "metrics.jsonl", "sync-profile.bin", "async-profile.bin",
		"throughput.png", "throughput.svg", "latency.png", "latency.svg", "rejections.png", "queue.svg"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("output %s: %v", name, err)
		}
	}
	if len(sum.Scenarios) != 2 {
		t.Fatalf("%d scenarios", len(sum.Scenarios))
	}
	for _, sc := range sum.Scenarios {
		if len(sc.Steps) != 3 {
			t.Fatalf("%s: %d steps, want 3", sc.Name, len(sc.Steps))
		}
		for _, st := range sc.Steps {
			if st.Requests != st.OK+st.Status503+st.Errors+st.Timeouts {
				t.Errorf("%s step %d: counts do not add up: %+v", sc.Name, st.Index, st)
			}
			if st.OK == 0 {
				t.Errorf("%s step %d: no OK responses", sc.Name, st.Index)
			}
			if st.LatencyMeanS == nil || *st.LatencyMeanS < 0.05 {
				t.Errorf("%s step %d: mean latency %s below the 50 ms backend", sc.Name, st.Index, report.Fig(st.LatencyMeanS, 3))
			}
		}
	}
	if runtime.GOOS != "windows" && (sum.Scenarios[0].ProcessCPUS <= 0 || sum.Scenarios[0].ProcessCores <= 0) {
		t.Errorf("no CPU accounting: %v s, %v cores", sum.Scenarios[0].ProcessCPUS, sum.Scenarios[0].ProcessCores)
	}
	// CPU per OK: the generator's own is read; this API's /metrics has no
	// process collector and its storage is none of the lab's, so those
	// are unknown and say why, as is the total.
	for _, sc := range sum.Scenarios {
		for _, st := range sc.Steps {
			c := st.CPUPerOK
			if runtime.GOOS != "windows" && (c.GeneratorUS == nil || *c.GeneratorUS <= 0) {
				t.Errorf("%s step %d: generator CPU per OK %s (%s)", sc.Name, st.Index, report.Fig(c.GeneratorUS, 0), c.Missing[report.ProcGenerator])
			}
			if c.APIUS != nil || !strings.Contains(c.Missing[report.ProcAPI], scrape.MetricCPU) || c.StorageUS != nil || c.Missing[report.ProcStorage] == "" || c.TotalUS != nil {
				t.Errorf("%s step %d: API %s, storage %s, total %s µs/OK, missing %v; want unknown, with reasons", sc.Name, st.Index,
					report.Fig(c.APIUS, 0), report.Fig(c.StorageUS, 0), report.Fig(c.TotalUS, 0), c.Missing)
			}
		}
	}
	syncTop := sum.Scenarios[0].Steps[2]
	asyncTop := sum.Scenarios[1].Steps[2]
	// 12 users against 2 workers + 4 queue slots: sync must overflow into
	// 503s and fill its queue; async holds workers only briefly.
	if syncTop.Status503 == 0 || syncTop.QueueLengthMax == nil || *syncTop.QueueLengthMax == 0 {
		t.Errorf("sync top step shows no 503s or queue: %+v", syncTop)
	}
	if asyncTop.Status503 != 0 || asyncTop.Errors != 0 {
		t.Errorf("async top step has failures: %+v", asyncTop)
	}
	if r := sum.Headline.ThroughputRatio; sum.Headline.Users != 12 || r == nil || *r <= 1 {
		t.Errorf("headline %+v: async should out-run sync", sum.Headline)
	}

	// The result files are plain vegeta files: vegeta's decoder and
	// Metrics read them, and hold at least what the windows counted.
	f, err := os.Open(filepath.Join(dir, "async-profile.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var m vegeta.Metrics
	dec := vegeta.NewDecoder(f)
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			break
		}
		m.Add(&r)
	}
	m.Close()
	var windowed int
	for _, st := range sum.Scenarios[1].Steps {
		windowed += st.Requests
	}
	if int(m.Requests) < windowed || m.StatusCodes["200"] == 0 {
		t.Errorf("vegeta sees %d requests (%v), windows counted %d", m.Requests, m.StatusCodes, windowed)
	}

	// Redrawing the folder in place through the report path agrees.
	if err := Report([]string{dir}, dir, nil); err != nil {
		t.Fatal(err)
	}
	again, err := report.ReadJSON(filepath.Join(dir, report.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := again.Scenarios[1].Steps[2].OK, asyncTop.OK; got != want {
		t.Errorf("report redraw counts %d OK at the top step, run counted %d", got, want)
	}
	if got, want := again.Scenarios[1].Steps[2].CPUPerOK, asyncTop.CPUPerOK; report.Fig(got.GeneratorUS, 3) != report.Fig(want.GeneratorUS, 3) || got.Missing[report.ProcAPI] != want.Missing[report.ProcAPI] {
		t.Errorf("report redraw's CPU per OK %+v, the run's %+v", got, want)
	}
	if again.Scenarios[0].ResultsFile == "" {
		t.Error("in-place redraw lost the results file names")
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	_, err := Run(context.Background(), Config{Profile: schedule.Profile{Users: []int{5, 1}}})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"no target URL", "no scenarios", "no output folder", "fewer than step"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	srv := newFakeAPI(2, 4, 20*time.Millisecond)
	defer srv.Close()
	sel, _ := Select("sync-profile")
	p := tinyProfile()
	p.TopMeasure = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	sum, err := Run(ctx, Config{BaseURL: srv.URL, Profile: p, Scenarios: sel, OutDir: t.TempDir(), BackendLatency: 20 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("err = %v, want cancellation", err)
	}
	if sum == nil || len(sum.Scenarios) != 1 || len(sum.Scenarios[0].Steps) >= 3 {
		t.Errorf("partial summary should hold only finished windows: %+v", sum)
	}
}

func TestSelect(t *testing.T) {
	cases := map[string][]string{
		"headline":                   {"sync-profile", "async-profile"},
		"profile":                    {"sync-profile", "async-profile", "wrapped-profile"},
		"async-upload, sync-profile": {"sync-profile", "async-upload"},
		"upload,client":              {"sync-upload", "async-upload", "sync-upload-client-per-request", "async-upload-client-per-request"},
		"order":                      {"sync-order", "async-order"},
	}
	for spec, want := range cases {
		got, err := Select(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		var names []string
		for _, s := range got {
			names = append(names, s.Name)
		}
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("Select(%q) = %v, want %v", spec, names, want)
		}
	}
	all, _ := Select("all")
	if len(all) != len(Scenarios) {
		t.Errorf("all selects %d of %d", len(all), len(Scenarios))
	}
	if _, err := Select("profile,nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := Select(" , "); err == nil {
		t.Error("empty selection accepted")
	}
	for _, s := range Scenarios {
		if !strings.HasPrefix(s.Path, "/api/") || s.Method == "" || len(s.Groups) == 0 {
			t.Errorf("scenario %+v is incomplete", s)
		}
	}
}

// A run cancelled between scenarios (during the drain, say) must not start
// the next one: it would only add an empty scenario to the summary.
func TestRunStartsNoScenarioAfterCancel(t *testing.T) {
	srv := newFakeAPI(2, 4, 20*time.Millisecond)
	defer srv.Close()
	sel, err := Select("headline")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sum, err := Run(ctx, Config{BaseURL: srv.URL, Profile: tinyProfile(), Scenarios: sel, OutDir: t.TempDir(), BackendLatency: 20 * time.Millisecond})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancellation", err)
	}
	if sum == nil || len(sum.Scenarios) != 0 {
		t.Errorf("summary after cancellation lists scenarios that never ran: %+v", sum)
	}
}

// The drain warns about a server still busy only when it timed out, not
// when the run was cancelled while it waited.
func TestDrainWarnsOnlyOnTimeout(t *testing.T) {
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "syncio_pool_workers_busy 1\nsyncio_pool_queue_length 5\n")
	}))
	defer busy.Close()
	for _, tc := range []struct {
		name   string
		cancel bool
		warn   bool
	}{{"timed out", false, true}, {"cancelled", true, false}} {
		var logs bytes.Buffer
		cfg := Config{Drain: 50 * time.Millisecond, Log: slog.New(slog.NewTextHandler(&logs, nil))}
		scraper := scrape.New(busy.URL, cfg.Log)
		ctx, cancel := context.WithCancel(context.Background())
		if tc.cancel {
			cancel()
		}
		drain(ctx, cfg, scraper, newProgress(cfg))
		cancel()
		scraper.Close()
		if got := strings.Contains(logs.String(), "still busy"); got != tc.warn {
			t.Errorf("%s: warned %v, want %v; log: %q", tc.name, got, tc.warn, logs.String())
		}
	}
}
