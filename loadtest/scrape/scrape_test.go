package scrape

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const exposition = `# HELP syncio_pool_workers Pool size.
# TYPE syncio_pool_workers gauge
syncio_pool_workers 100
# TYPE syncio_pool_workers_busy gauge
syncio_pool_workers_busy 87
# TYPE syncio_pool_queue_length gauge
syncio_pool_queue_length %d
# TYPE syncio_pool_rejected_total counter
syncio_pool_rejected_total 1234
# TYPE syncio_http_request_duration_seconds histogram
syncio_http_request_duration_seconds_bucket{route="/api/sync/profile",status="200",le="+Inf"} 3
syncio_http_request_duration_seconds_sum{route="/api/sync/profile",status="200"} 6
syncio_http_request_duration_seconds_count{route="/api/sync/profile",status="200"} 3
# TYPE go_goroutines gauge
go_goroutines 4321
# TYPE process_resident_memory_bytes gauge
process_resident_memory_bytes 1.93e+08
# TYPE process_cpu_seconds_total counter
process_cpu_seconds_total 12.5
`

func TestParse(t *testing.T) {
	at := time.Unix(100, 0)
	s, err := Parse(strings.NewReader(fmt.Sprintf(exposition, 2999)), at)
	if err != nil {
		t.Fatal(err)
	}
	want := Sample{Time: at, Workers: 100, WorkersBusy: 87, QueueLength: 2999, Rejected: 1234, Goroutines: 4321, RSSBytes: 1.93e8, CPUSeconds: 12.5}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Parse = %+v, want %+v", s, want)
	}
	watched, err := Parse(strings.NewReader(fmt.Sprintf(exposition, 1)+
		"# TYPE syncio_blockwatch_blocked_holding_worker_seconds_total counter\nsyncio_blockwatch_blocked_holding_worker_seconds_total 42.5\n"), at)
	if err != nil || !watched.Blockwatch || watched.BlockedHoldingWorkerS != 42.5 || watched.Watched {
		t.Errorf("with the watcher's counter: %+v, %v", watched, err)
	}
	denominated, err := Parse(strings.NewReader(fmt.Sprintf(exposition, 1)+
		"syncio_blockwatch_blocked_holding_worker_seconds_total 42.5\nsyncio_blockwatch_watched_seconds_total 17.25\nsyncio_blockwatch_samples_total 90\n"), at)
	if err != nil || !denominated.Watched || denominated.WatchedS != 17.25 || denominated.WatcherSamples != 90 {
		t.Errorf("with the watched time and the samples: %+v, %v", denominated, err)
	}
	if _, err := Parse(strings.NewReader("not { metrics"), at); err == nil {
		t.Error("garbage parsed without error")
	}
}

// TestProcessMetricsAbsent: a service that does not register
// client_golang's process and Go collectors has no RSS, CPU or goroutine
// metrics. The sample names them as absent (their fields' 0 is not a
// reading), and the scraper warns once per metric, naming it and the
// collector that exports it.
func TestProcessMetricsAbsent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "app_slots 2\napp_slots_in_use 1\n")
	}))
	defer srv.Close()
	s := New(srv.URL, slog.New(slog.DiscardHandler), WithNames(Names{Queue: "app_slots_in_use", Busy: "app_slots_in_use", Workers: "app_slots"}))
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, 10*time.Millisecond); close(done) }()
	for deadline := time.Now().Add(5 * time.Second); len(s.Samples()) < 3; {
		if time.Now().After(deadline) {
			t.Fatal("fewer than 3 samples")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	smp := s.Samples()[0]
	if want := []string{MetricRSS, MetricCPU, MetricGoroutines}; !reflect.DeepEqual(smp.Absent, want) || len(smp.Missing) != 0 {
		t.Errorf("absent %q, missing %q; want %q and none", smp.Absent, smp.Missing, want)
	}
	for _, m := range []string{MetricRSS, MetricCPU, MetricGoroutines} {
		if smp.HasMetric(m) {
			t.Errorf("HasMetric(%s) on a service without it", m)
		}
	}
	warnings := s.Warnings()
	if len(warnings) != 3 {
		t.Errorf("%d warnings over %d scrapes, want one per absent metric: %q", len(warnings), len(s.Samples()), warnings)
	}
	for _, want := range []string{
		MetricRSS + " is not in " + srv.URL,
		"process collector (collectors.NewProcessCollector), so API cores shows –",
		MetricGoroutines + " is not in " + srv.URL,
		"Go collector (collectors.NewGoCollector), so goroutines shows –",
	} {
		if !strings.Contains(strings.Join(warnings, "\n"), want) {
			t.Errorf("warnings %q do not say %q", warnings, want)
		}
	}
	full, err := Parse(strings.NewReader(fmt.Sprintf(exposition, 1)), time.Unix(1, 0))
	if err != nil || len(full.Absent) != 0 || !full.HasMetric(MetricRSS) {
		t.Errorf("with the collectors: absent %q, %v", full.Absent, err)
	}
}

func TestScraperRun(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, exposition, n.Add(1))
	}))
	defer srv.Close()
	s := New(srv.URL, slog.New(slog.DiscardHandler))
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, 10*time.Millisecond); close(done) }()
	for deadline := time.Now().Add(5 * time.Second); len(s.Samples()) < 3; {
		if time.Now().After(deadline) {
			t.Fatal("fewer than 3 samples")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	got := s.Samples()
	for i, smp := range got {
		if smp.QueueLength != float64(i+1) {
			t.Errorf("sample %d has queue %v, want %d (one scrape per sample, in order)", i, smp.QueueLength, i+1)
		}
	}
	if last, ok := s.Last(); !ok || !reflect.DeepEqual(last, got[len(got)-1]) {
		t.Errorf("Last = %+v, %v", last, ok)
	}
}

func TestOnceReportsHTTPErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	s := New(srv.URL+"/metrics", slog.New(slog.DiscardHandler))
	if _, err := s.Once(context.Background()); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("Once on a 404 = %v", err)
	}
}

// TestParseNames reads another service's gauges as the queue, busy
// workers and workers: here database/sql's pool stats, as client_golang's
// DB stats collector names them, with two pools in one exposition (a
// database per handler version). A plain name sums its series; label
// matchers pick some; an empty name keeps the demo's.
func TestParseNames(t *testing.T) {
	const db = `# TYPE go_sql_in_use_connections gauge
go_sql_in_use_connections{db_name="before"} 7
go_sql_in_use_connections{db_name="after"} 1
# TYPE go_sql_max_open_connections gauge
go_sql_max_open_connections{db_name="before"} 10
go_sql_max_open_connections{db_name="after"} 4
# TYPE app_waiting gauge
app_waiting 42
# TYPE syncio_pool_queue_length gauge
syncio_pool_queue_length 5
`
	for _, c := range []struct {
		names              Names
		queue, busy, total float64
		missing            []string // a selector that matches nothing is missing, not 0
	}{
		{Names{Queue: "app_waiting", Busy: "go_sql_in_use_connections", Workers: "go_sql_max_open_connections"}, 42, 8, 14, nil},
		{Names{Busy: `go_sql_in_use_connections{db_name="before"}`, Workers: `go_sql_max_open_connections{ db_name = "after" }`}, 5, 7, 4, nil},
		{Names{Busy: `go_sql_in_use_connections{db_name="other"}`}, 5, 0, 0, []string{RoleWorkers, RoleBusy}},
	} {
		s, err := ParseNames(strings.NewReader(db), time.Unix(1, 0), c.names)
		if err != nil {
			t.Fatal(err)
		}
		if s.QueueLength != c.queue || s.WorkersBusy != c.busy || s.Workers != c.total || !reflect.DeepEqual(s.Missing, c.missing) {
			t.Errorf("%+v: sample %+v, want queue %v, busy %v, workers %v", c.names, s, c.queue, c.busy, c.total)
		}
	}
	for in, want := range map[string]string{
		"":              "want NAME",
		"9x":            "want NAME",
		`x{a="b"`:       "missing }",
		"x{a=b}":        "label matcher",
		`x{="b"}`:       "label matcher",
		`x{a="b"} junk`: "missing }",
	} {
		if _, err := ParseSelector(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSelector(%q) = %v, want %q", in, err, want)
		}
	}
	if _, err := ParseNames(strings.NewReader(db), time.Unix(1, 0), Names{Busy: "x{"}); err == nil {
		t.Error("ParseNames took a malformed selector")
	}
}

// TestScraperWarnsOnce: a selector that matches no series (a typo in
// -metric-busy) and a -metrics URL that does not answer are each named in
// a warning, once, at the first scrape that misses them; the samples say
// which figure is missing instead of reading 0.
func TestScraperWarnsOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// With the process and Go collectors' metrics, whose absence
		// TestProcessMetricsAbsent warns of.
		fmt.Fprint(w, "slots_in_use 3\nslots_total 4\nslots_waiting 0\nprocess_resident_memory_bytes 1e7\nprocess_cpu_seconds_total 2\ngo_goroutines 9\n")
	}))
	defer srv.Close()
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	s := New(srv.URL, log, WithNames(Names{Busy: "slots_in_us", Workers: "slots_total", Queue: "slots_waiting"}))
	defer s.Close()
	runFor := func(s *Scraper, n int) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx, 5*time.Millisecond); close(done) }()
		for deadline := time.Now().Add(5 * time.Second); len(s.Samples()) < n && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(30 * time.Millisecond)
		cancel()
		<-done
	}
	runFor(s, 3)
	w := s.Warnings()
	if len(w) != 1 || !strings.Contains(w[0], "-metric-busy slots_in_us matched no series") || !strings.Contains(w[0], srv.URL) {
		t.Errorf("warnings = %q, want one naming -metric-busy slots_in_us and the URL", w)
	}
	if n := strings.Count(logged.String(), "slots_in_us"); n != 1 {
		t.Errorf("logged the typo %d times, want once:\n%s", n, logged.String())
	}
	for _, smp := range s.Samples() {
		if smp.Has(RoleBusy) || !smp.Has(RoleWorkers) || !smp.Has(RoleQueue) {
			t.Errorf("sample %+v: busy should be missing, workers and queue present", smp)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/metrics"
	ln.Close()
	d := New(dead, slog.New(slog.DiscardHandler))
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	d.Run(ctx, 10*time.Millisecond)
	cancel()
	if w := d.Warnings(); len(w) != 1 || !strings.Contains(w[0], dead) || !strings.Contains(w[0], "–") {
		t.Errorf("unreachable -metrics: warnings = %q, want one naming %s", w, dead)
	}
}
