package aggregate

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/loadtest/scrape"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func result(code uint16, sentAt, latency time.Duration, errMsg string) *vegeta.Result {
	return &vegeta.Result{Code: code, Timestamp: t0.Add(sentAt), Latency: latency, Error: errMsg}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		r    *vegeta.Result
		want Outcome
	}{
		{result(200, 0, 0, ""), OK},
		{result(201, 0, 0, ""), OK},
		{result(503, 0, 0, "503 Service Unavailable"), Rejected},
		{result(0, 0, 0, "net/http: timeout awaiting response headers"), Timeout},
		{result(0, 0, 0, "context deadline exceeded"), Timeout},
		{result(504, 0, 0, "504 Gateway Timeout"), Timeout},
		{result(0, 0, 0, "connection refused"), Failed},
		{result(500, 0, 0, "500 Internal Server Error"), Failed},
		{result(200, 0, 0, "reading body: unexpected EOF"), Failed},
	}
	for _, c := range cases {
		if got := Classify(c.r); got != c.want {
			t.Errorf("Classify(code %d, %q) = %v, want %v", c.r.Code, c.r.Error, got, c.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(i + 1)
	}
	for q, want := range map[float64]float64{0.5: 50, 0.95: 95, 0.99: 99, 1: 100, 0.001: 1} {
		if got := Percentile(v, q); got != want {
			t.Errorf("Percentile(1..100, %v) = %v, want %v", q, got, want)
		}
	}
	if got := Percentile([]float64{7}, 0.99); got != 7 {
		t.Errorf("single value: %v", got)
	}
	if got := Percentile(nil, 0.5); got != 0 {
		t.Errorf("empty: %v", got)
	}
}

func TestStepStats(t *testing.T) {
	var s Step
	for i := 1; i <= 10; i++ { // OK latencies 0.1 .. 1.0 s
		s.Add(result(200, 0, time.Duration(i)*100*time.Millisecond, ""))
	}
	s.Add(result(503, 0, 5*time.Second, "503 Service Unavailable")) // not an OK latency
	s.Add(result(503, 0, time.Millisecond, "503 Service Unavailable"))
	s.Add(result(0, 0, time.Minute, "net/http: timeout awaiting response headers"))
	s.Add(result(500, 0, time.Millisecond, "500 Internal Server Error"))

	st := s.Stats(5 * time.Second)
	if st.Requests != 14 || st.OK != 10 || st.Rejected != 2 || st.Timeouts != 1 || st.Errors != 1 {
		t.Errorf("counts = %+v", st)
	}
	if st.ThroughputRPS != 2 || st.RejectedRPS != 0.4 {
		t.Errorf("throughput %v OK/s, %v 503/s; want 2 and 0.4 over a 5 s window", st.ThroughputRPS, st.RejectedRPS)
	}
	approx := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	approx("mean", st.LatencyMean, 0.55)
	approx("p50", st.P50, 0.5)
	approx("p95", st.P95, 1.0)
	approx("max", st.Max, 1.0)
	if zero := (&Step{}).Stats(time.Second); zero.LatencyMean != 0 || zero.ThroughputRPS != 0 {
		t.Errorf("empty step stats = %+v", zero)
	}
}

func TestWindowsUseCompletionTime(t *testing.T) {
	w := NewWindows([]Window{
		{From: t0.Add(10 * time.Second), To: t0.Add(20 * time.Second)},
		{From: t0.Add(30 * time.Second), To: t0.Add(40 * time.Second)},
	})
	cases := []struct {
		r    *vegeta.Result
		want int
	}{
		{result(200, 5*time.Second, time.Second, ""), -1},         // ends at 6 s: warm-up
		{result(200, 5*time.Second, 6*time.Second, ""), 0},        // sent early, ends at 11 s
		{result(200, 19*time.Second, 2*time.Second, ""), -1},      // ends at 21 s: settling
		{result(200, 10*time.Second, 10*time.Second, ""), -1},     // ends exactly at To: excluded
		{result(200, 28*time.Second, 2*time.Second, ""), 1},       // ends exactly at From: included
		{result(503, 35*time.Second, time.Millisecond, "503"), 1}, // rejected in window 1
	}
	for i, c := range cases {
		if got := w.Add(c.r); got != c.want {
			t.Errorf("case %d: window %d, want %d", i, got, c.want)
		}
	}
	if w.Outside != 3 || w.Steps[0].Requests != 1 || w.Steps[1].Requests != 2 || w.Steps[1].Rejected != 1 {
		t.Errorf("outside %d, step0 %+v, step1 %+v", w.Outside, *w.Steps[0], *w.Steps[1])
	}
}

func TestMerge(t *testing.T) {
	var a, b Step
	a.Add(result(200, 0, time.Second, ""))
	a.Add(result(503, 0, 0, "503"))
	b.Add(result(200, 0, 3*time.Second, ""))
	a.Merge(&b)
	st := a.Stats(time.Second)
	if st.Requests != 3 || st.OK != 2 || st.Rejected != 1 || st.LatencyMean != 2 || st.Max != 3 {
		t.Errorf("merged stats = %+v", st)
	}
}

func TestServerStats(t *testing.T) {
	smp := func(sec int, queue, busy, rejected float64) scrape.Sample {
		return scrape.Sample{Time: t0.Add(time.Duration(sec) * time.Second), QueueLength: queue, WorkersBusy: busy, Rejected: rejected, Workers: 100, RSSBytes: float64(sec) * 1e6, Goroutines: float64(100 + sec), CPUSeconds: 1.5 * float64(sec)}
	}
	samples := []scrape.Sample{
		smp(0, 0, 0, 0), smp(1, 5, 50, 10), // before the window
		smp(2, 10, 100, 20), smp(3, 30, 100, 25), smp(4, 20, 70, 40), // inside
		smp(5, 90, 100, 90), // after
	}
	got := ServerStats(samples, t0.Add(2*time.Second), t0.Add(4*time.Second))
	want := Server{Samples: 3, QueueLengthMax: ptr(30), WorkersBusyMean: ptr(90), Workers: ptr(100), RejectedDelta: ptr(30), RSSBytesMax: ptr(4e6), GoroutinesMax: ptr(104), CPUCores: ptr(1.5)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ServerStats = %+v, want %+v", got, want)
	}
	// A selector that matched nothing (busy here) leaves its figure
	// unknown; the others are still read.
	for i := range samples {
		samples[i].Missing = []string{scrape.RoleBusy}
	}
	got = ServerStats(samples, t0.Add(2*time.Second), t0.Add(4*time.Second))
	if got.WorkersBusyMean != nil || got.QueueLengthMax == nil || *got.QueueLengthMax != 30 {
		t.Errorf("busy missing: busy %v queue %v, want busy unknown and queue 30", got.WorkersBusyMean, got.QueueLengthMax)
	}
	if none := ServerStats(samples, t0.Add(time.Hour), t0.Add(2*time.Hour)); none.Samples != 0 || none.RejectedDelta != nil || none.QueueLengthMax != nil || none.Workers != nil {
		t.Errorf("no samples in window: %+v", none)
	}
}

// TestServerStatsWithoutRejectedCounter: a service without the demo pool's
// syncio_pool_rejected_total has no rejection count: unknown, not 0 (which
// read as "the server turned nobody away").
func TestServerStatsWithoutRejectedCounter(t *testing.T) {
	samples := []scrape.Sample{
		{Time: t0, NoRejected: true}, {Time: t0.Add(time.Second), NoRejected: true},
	}
	if got := ServerStats(samples, t0, t0.Add(2*time.Second)); got.Samples != 2 || got.RejectedDelta != nil {
		t.Errorf("without the counter: %d samples, rejected %v, want 2 and unknown", got.Samples, got.RejectedDelta)
	}
	smp, err := scrape.Parse(strings.NewReader("go_goroutines 7\n"), t0)
	if err != nil || !smp.NoRejected {
		t.Errorf("Parse of an exposition without the counter: %v, NoRejected %v", err, smp.NoRejected)
	}
	smp, err = scrape.Parse(strings.NewReader("syncio_pool_rejected_total 3\n"), t0)
	if err != nil || smp.NoRejected || smp.Rejected != 3 {
		t.Errorf("Parse with the counter: %v, %+v", err, smp)
	}
}

// TestServerStatsWithoutProcessCollectors: a service that does not
// register client_golang's process and Go collectors has no RSS, CPU or
// goroutines: unknown, not 0 (which read as an idle, empty process).
func TestServerStatsWithoutProcessCollectors(t *testing.T) {
	absent := []string{scrape.MetricRSS, scrape.MetricCPU, scrape.MetricGoroutines}
	smp := func(sec int) scrape.Sample {
		return scrape.Sample{Time: t0.Add(time.Duration(sec) * time.Second), QueueLength: 3, Workers: 20, Absent: absent}
	}
	got := ServerStats([]scrape.Sample{smp(0), smp(1), smp(2)}, t0, t0.Add(2*time.Second))
	if got.RSSBytesMax != nil || got.GoroutinesMax != nil || got.CPUCores != nil {
		t.Errorf("RSS %v, goroutines %v, cores %v; want all unknown", got.RSSBytesMax, got.GoroutinesMax, got.CPUCores)
	}
	if got.QueueLengthMax == nil || *got.QueueLengthMax != 3 {
		t.Errorf("the pool's figures were lost with the process ones: queue %v", got.QueueLengthMax)
	}
	// One sample in the window: no rate of CPU time, so cores are unknown.
	one := ServerStats([]scrape.Sample{{Time: t0, CPUSeconds: 4}}, t0, t0.Add(time.Second))
	if one.CPUCores != nil || one.RSSBytesMax == nil {
		t.Errorf("one sample: cores %v, RSS %v; want cores unknown, RSS read", one.CPUCores, one.RSSBytesMax)
	}
}

func TestServerStatsBlockedHoldingWorker(t *testing.T) {
	smp := func(sec int, watched bool, blocked float64) scrape.Sample {
		return scrape.Sample{Time: t0.Add(time.Duration(sec) * time.Second), Blockwatch: watched, BlockedHoldingWorkerS: blocked}
	}
	// An API whose watcher exports no watched time: 100 workers blocked
	// throughout, the counter grows 100 goroutine-seconds a second.
	got := ServerStats([]scrape.Sample{smp(0, true, 0), smp(2, true, 200), smp(4, true, 400)}, t0.Add(time.Second), t0.Add(4*time.Second))
	if got.Blocked.Mean == nil || *got.Blocked.Mean != 100 {
		t.Errorf("blocked holding a worker = %v, want 100 goroutines on average", got.Blocked.Mean)
	}
	if none := ServerStats([]scrape.Sample{smp(0, false, 0), smp(2, false, 0)}, t0, t0.Add(4*time.Second)); none.Blocked.Mean != nil {
		t.Errorf("an API without its watcher gave %v, want none (not 0)", *none.Blocked.Mean)
	}
}

// TestBlockedIsOverWatchedTime: each watcher sample stands for the time
// since the one before, so the first of a window's samples stands partly
// for time before it. Two workers are blocked throughout; over a 2 s
// window 10 samples standing for 2.5 s in all raised the counter by 5.
// Divided by the 2 s of wall time that read 2.5 workers blocked of 2;
// divided by the 2.5 s the samples stand for it reads 2. Too few samples
// read unknown, with the reason, not 0.
func TestBlockedIsOverWatchedTime(t *testing.T) {
	smp := func(ms int, samples, watchedS, blockedS float64) scrape.Sample {
		return scrape.Sample{Time: t0.Add(time.Duration(ms) * time.Millisecond), Blockwatch: true, Watched: true,
			WatcherSamples: samples, WatchedS: watchedS, BlockedHoldingWorkerS: blockedS}
	}
	b := BlockedBetween(smp(0, 10, 12, 24), smp(2000, 20, 14.5, 29))
	if b.Mean == nil || math.Abs(*b.Mean-2) > 1e-9 || b.Samples == nil || *b.Samples != 10 || b.Missing != "" {
		t.Errorf("mean %v over %v samples (%q), want 2 over 10", b.Mean, b.Samples, b.Missing)
	}
	few := BlockedBetween(smp(0, 10, 12, 24), smp(2000, 12, 14.4, 28.8))
	if few.Mean != nil || !strings.Contains(few.Missing, "2 blocking-watcher samples in the window, 10 needed") {
		t.Errorf("2 samples: mean %v, missing %q; want unknown and why", few.Mean, few.Missing)
	}
	if none := BlockedBetween(smp(0, 10, 12, 24), smp(2000, 10, 12, 24)); none.Mean != nil || none.Missing == "" {
		t.Errorf("no sample in the window: mean %v, missing %q; want unknown and why (not 0)", none.Mean, none.Missing)
	}
	if MinWatcherSamples != blockwatch.DefaultMinSamples {
		t.Errorf("the lab needs %d samples for a window's figure, the watcher's report %d: one rule, two numbers", MinWatcherSamples, blockwatch.DefaultMinSamples)
	}
}
