package pool

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitFor polls the pool until cond holds. The tests synchronise on the pool's
// own state instead of sleeping, so they are deterministic; the deadline only
// turns a bug into a failure rather than a hang.
func waitFor(t *testing.T, p *Pool, what string, cond func(Stats) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond(p.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; stats %+v", what, p.Stats())
		}
		time.Sleep(100 * time.Microsecond)
	}
}

func TestAcquireFreeWorkerRunsAtOnce(t *testing.T) {
	p := New(2, 0)
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if err := p.Acquire(ctx); err != nil {
			t.Fatalf("acquire %d: %v", i, err)
		}
	}
	if s := p.Stats(); s.Busy != 2 || s.Queued != 0 {
		t.Fatalf("stats = %+v, want 2 busy, 0 queued", s)
	}
	p.Release()
	p.Release()
	if s := p.Stats(); s.Busy != 0 {
		t.Fatalf("busy = %d after releasing all, want 0", s.Busy)
	}
}

func TestFIFOOrder(t *testing.T) {
	p := New(1, 10)
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	const n = 6
	var (
		mu    sync.Mutex
		order []int
		wg    sync.WaitGroup
	)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Acquire(ctx); err != nil {
				t.Errorf("acquire %d: %v", i, err)
				return
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			p.Release()
		}()
		// Enqueue one at a time so arrival order is known.
		waitFor(t, p, "arrival queued", func(s Stats) bool { return s.Queued == i+1 })
	}
	p.Release()
	wg.Wait()
	for i, got := range order {
		if got != i {
			t.Fatalf("service order = %v, want 0..%d in order", order, n-1)
		}
	}
	if len(order) != n {
		t.Fatalf("served %d, want %d", len(order), n)
	}
}

func TestRejectWhenQueueFull(t *testing.T) {
	reg := prometheus.NewRegistry()
	p := New(1, 2, WithRegisterer(reg))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	for i := 0; i < 2; i++ {
		go func() { errs <- p.Acquire(ctx) }()
	}
	waitFor(t, p, "queue full", func(s Stats) bool { return s.Queued == 2 })

	start := time.Now()
	err := p.Acquire(ctx)
	if !errors.Is(err, ErrQueueFull) {
		t.Fatalf("acquire on full queue = %v, want ErrQueueFull", err)
	}
	// "At once" is about not blocking; a generous bound keeps this robust.
	if d := time.Since(start); d > time.Second {
		t.Fatalf("rejection blocked for %v", d)
	}
	if s := p.Stats(); s.Rejected != 1 || s.Queued != 2 {
		t.Fatalf("stats = %+v, want 1 rejected, 2 queued", s)
	}
	var m dto.Metric
	if err := p.m.rejected.Write(&m); err != nil {
		t.Fatal(err)
	}
	if got := m.GetCounter().GetValue(); got != 1 {
		t.Fatalf("syncio_pool_rejected_total = %v, want 1", got)
	}

	cancel()
	for i := 0; i < 2; i++ {
		if err := <-errs; !errors.Is(err, context.Canceled) {
			t.Fatalf("queued acquire after cancel = %v, want context.Canceled", err)
		}
	}
	p.Release()
}

func TestZeroQueueRejectsWhenBusy(t *testing.T) {
	p := New(1, 0)
	if err := p.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := p.Acquire(context.Background()); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("got %v, want ErrQueueFull", err)
	}
	p.Release()
}

func TestCancelWhileQueuedIsDroppedNotRun(t *testing.T) {
	p := New(1, 5)
	bg := context.Background()
	if err := p.Acquire(bg); err != nil {
		t.Fatal(err)
	}
	// Three arrivals; the middle one's client goes away.
	ctxGone, cancel := context.WithCancel(bg)
	ran := make(chan string, 3)
	var wg sync.WaitGroup
	start := func(name string, ctx context.Context, queued int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Acquire(ctx); err != nil {
				if name != "gone" || !errors.Is(err, context.Canceled) {
					t.Errorf("%s: unexpected error %v", name, err)
				}
				return
			}
			ran <- name
			p.Release()
		}()
		waitFor(t, p, name+" queued", func(s Stats) bool { return s.Queued == queued })
	}
	start("first", bg, 1)
	start("gone", ctxGone, 2)
	start("last", bg, 3)

	cancel()
	waitFor(t, p, "dropped from queue", func(s Stats) bool { return s.Queued == 2 })
	p.Release()
	wg.Wait()
	close(ran)
	var got []string
	for n := range ran {
		got = append(got, n)
	}
	if strings.Join(got, ",") != "first,last" {
		t.Fatalf("ran %v, want [first last] (the cancelled arrival must not run)", got)
	}
	if s := p.Stats(); s.Busy != 0 || s.Queued != 0 {
		t.Fatalf("stats = %+v, want idle", s)
	}
}

func TestAcquireWithDoneContext(t *testing.T) {
	p := New(1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if s := p.Stats(); s.Busy != 0 {
		t.Fatalf("a done context took a worker: %+v", s)
	}
}

func TestAwaitReleasesWorkerDuringIO(t *testing.T) {
	p := New(1, 1)
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	ioStarted := make(chan struct{})
	finishIO := make(chan struct{})
	awaitDone := make(chan error, 1)
	go func() {
		awaitDone <- p.Await(ctx, func(context.Context) error {
			close(ioStarted)
			<-finishIO
			return errors.New("io failed")
		})
	}()
	<-ioStarted
	// With the only worker released, a new arrival must get it right away.
	if s := p.Stats(); s.Busy != 0 {
		t.Fatalf("busy = %d during Await's io, want 0", s.Busy)
	}
	if err := p.Acquire(ctx); err != nil {
		t.Fatalf("acquire during Await: %v", err)
	}
	close(finishIO)
	// The continuation now waits for the worker held by the arrival.
	waitFor(t, p, "continuation waiting", func(s Stats) bool { return s.Continuations == 1 })
	p.Release()
	if err := <-awaitDone; err == nil || err.Error() != "io failed" {
		t.Fatalf("Await returned %v, want io's error", err)
	}
	if s := p.Stats(); s.Busy != 1 {
		t.Fatalf("busy = %d after Await, want 1 (Await returns holding a worker)", s.Busy)
	}
	p.Release()
}

func TestContinuationPriorityOverArrivals(t *testing.T) {
	p := New(1, 1) // queue capacity 1: the queue is full with one arrival
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		order []string
	)
	record := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }

	// A holds a worker and starts async I/O.
	finishIO := make(chan struct{})
	ioStarted := make(chan struct{})
	awaitDone := make(chan struct{})
	go func() {
		defer close(awaitDone)
		_ = p.Await(ctx, func(context.Context) error { close(ioStarted); <-finishIO; return nil })
		record("continuation")
		p.Release()
	}()
	<-ioStarted
	// The outer holder released in Await; take the worker back with a
	// blocker, then fill the admission queue.
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	arrivalDone := make(chan struct{})
	go func() {
		defer close(arrivalDone)
		if err := p.Acquire(ctx); err != nil {
			t.Errorf("arrival: %v", err)
			return
		}
		record("arrival")
		p.Release()
	}()
	waitFor(t, p, "arrival queued", func(s Stats) bool { return s.Queued == 1 })
	close(finishIO)
	waitFor(t, p, "continuation queued", func(s Stats) bool { return s.Continuations == 1 })
	// The queue is full, yet the continuation was not rejected.
	if err := p.Acquire(ctx); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("new arrival on full queue = %v, want ErrQueueFull", err)
	}
	p.Release()
	<-awaitDone
	<-arrivalDone
	if strings.Join(order, ",") != "continuation,arrival" {
		t.Fatalf("order = %v, want continuation before the earlier arrival", order)
	}
}

// A panic in the I/O (Await) or the offloaded call (Offload) propagates,
// and the caller still holds its worker afterwards.
func TestPanicKeepsCallerWorker(t *testing.T) {
	for name, call := range map[string]func(*Pool, func(context.Context) error) error{
		"Await":   func(p *Pool, fn func(context.Context) error) error { return p.Await(context.Background(), fn) },
		"Offload": func(p *Pool, fn func(context.Context) error) error { return p.Offload(context.Background(), fn) },
	} {
		t.Run(name, func(t *testing.T) {
			p := New(1, 0)
			if err := p.Acquire(context.Background()); err != nil {
				t.Fatal(err)
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Fatal("panic did not propagate")
					}
				}()
				_ = call(p, func(context.Context) error { panic("boom") })
			}()
			if s := p.Stats(); s.Busy != 1 {
				t.Fatalf("busy = %d after a panic, want 1 (still held by the caller)", s.Busy)
			}
			p.Release()
		})
	}
}

func TestDoUsesItsOwnWorker(t *testing.T) {
	p := New(2, 0)
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	var busyInside int
	if err := p.Do(ctx, func(context.Context) error { busyInside = p.Stats().Busy; return nil }); err != nil {
		t.Fatal(err)
	}
	if busyInside != 2 {
		t.Fatalf("busy inside Do = %d, want 2 (caller's worker + Do's)", busyInside)
	}
	// With the second worker taken too, Do cannot get one and the queue is 0.
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	called := false
	err := p.Do(ctx, func(context.Context) error { called = true; return nil })
	if !errors.Is(err, ErrQueueFull) || called {
		t.Fatalf("Do on a saturated pool = %v (called %v), want ErrQueueFull without running", err, called)
	}
	p.Release()
	p.Release()
}

func TestMetricsExactNames(t *testing.T) {
	reg := prometheus.NewRegistry()
	p := New(3, 4, WithRegisterer(reg))
	if err := p.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		m := mf.GetMetric()[0]
		switch {
		case m.Gauge != nil:
			got[mf.GetName()] = m.Gauge.GetValue()
		case m.Counter != nil:
			got[mf.GetName()] = m.Counter.GetValue()
		case m.Histogram != nil:
			got[mf.GetName()] = float64(m.Histogram.GetSampleCount())
		}
	}
	want := map[string]float64{
		"syncio_pool_workers":            3,
		"syncio_pool_workers_busy":       1,
		"syncio_pool_queue_length":       0,
		"syncio_pool_rejected_total":     0,
		"syncio_pool_queue_wait_seconds": 1,
	}
	for name, v := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("metric %s missing", name)
			continue
		}
		if g != v {
			t.Errorf("%s = %v, want %v", name, g, v)
		}
	}
}

func TestStressBalanced(t *testing.T) {
	p := New(4, 1000)
	ctx := context.Background()
	var wg sync.WaitGroup
	var (
		mu      sync.Mutex
		maxBusy int
	)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Acquire(ctx); err != nil {
				t.Errorf("acquire: %v", err)
				return
			}
			defer p.Release()
			mu.Lock()
			if b := p.Stats().Busy; b > maxBusy {
				maxBusy = b
			}
			mu.Unlock()
			if i%2 == 0 {
				_ = p.Await(ctx, func(context.Context) error { return nil })
			}
		}()
	}
	wg.Wait()
	if s := p.Stats(); s.Busy != 0 || s.Queued != 0 || s.Continuations != 0 {
		t.Fatalf("pool not idle after all work: %+v", s)
	}
	if maxBusy > 4 {
		t.Fatalf("observed %d busy workers, pool has 4", maxBusy)
	}
}

func TestAbandonedContinuationOvercommitsBriefly(t *testing.T) {
	p := New(1, 4)
	bg := context.Background()
	if err := p.Acquire(bg); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	ioStarted, finishIO := make(chan struct{}), make(chan struct{})
	awaitErr := make(chan error, 1)
	go func() {
		awaitErr <- p.Await(ctx, func(context.Context) error { close(ioStarted); <-finishIO; return nil })
	}()
	<-ioStarted
	// Someone else takes the only worker, so the continuation must wait ...
	if err := p.Acquire(bg); err != nil {
		t.Fatal(err)
	}
	close(finishIO)
	waitFor(t, p, "continuation waiting", func(s Stats) bool { return s.Continuations == 1 })
	// ... and an arrival queues behind it.
	arrived := make(chan struct{})
	go func() {
		if err := p.Acquire(bg); err != nil {
			t.Errorf("arrival: %v", err)
		}
		close(arrived)
	}()
	waitFor(t, p, "arrival queued", func(s Stats) bool { return s.Queued == 1 })

	cancel()
	if err := <-awaitErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("abandoned Await = %v, want context.Canceled", err)
	}
	if s := p.Stats(); s.Busy != 2 || s.Continuations != 0 {
		t.Fatalf("stats = %+v, want 2 busy (1 overcommitted), no continuation", s)
	}
	// The abandoned request finishes: this frees no real worker, so the
	// queued arrival must still wait.
	p.Release()
	if s := p.Stats(); s.Busy != 1 || s.Queued != 1 {
		t.Fatalf("after releasing the overcommitted slot: %+v, want 1 busy, 1 queued", s)
	}
	p.Release() // the real worker: goes to the arrival
	<-arrived
	if s := p.Stats(); s.Busy != 1 || s.Queued != 0 {
		t.Fatalf("stats = %+v, want the arrival running", s)
	}
	p.Release()
}

// TestOffloadHoldsOneWorker: the offloaded call runs with a single worker
// in use, where Do would need two and is rejected on a one-worker pool.
func TestOffloadHoldsOneWorker(t *testing.T) {
	p := New(1, 0)
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Do(ctx, func(context.Context) error { return nil }); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("Do on a one-worker pool = %v, want ErrQueueFull", err)
	}
	var inside Stats
	if err := p.Offload(ctx, func(context.Context) error { inside = p.Stats(); return nil }); err != nil {
		t.Fatal(err)
	}
	if inside.Busy != 1 {
		t.Fatalf("busy inside Offload = %d, want 1 (the caller's worker was handed back)", inside.Busy)
	}
	if s := p.Stats(); s.Busy != 1 || s.Continuations != 0 {
		t.Fatalf("after Offload stats = %+v, want the caller holding 1 worker", s)
	}
	p.Release()
	if s := p.Stats(); s.Busy != 0 {
		t.Fatalf("busy = %d after Release, want 0", s.Busy)
	}
}

// TestOffloadPriorityOverArrivals: the caller's worker goes to the queued
// arrival, the offloaded call then waits ahead of a later arrival (and is not
// rejected although the queue is full), and the caller finishes before it.
func TestOffloadPriorityOverArrivals(t *testing.T) {
	p := New(1, 1)
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		order []string
	)
	record := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }
	arrival := func(name string, hold <-chan struct{}, done chan<- struct{}) {
		defer close(done)
		if err := p.Acquire(ctx); err != nil {
			t.Errorf("%s: %v", name, err)
			return
		}
		record(name)
		if hold != nil {
			<-hold
		}
		p.Release()
	}

	releaseB := make(chan struct{})
	bDone, cDone, offDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go arrival("B", releaseB, bDone)
	waitFor(t, p, "B queued", func(s Stats) bool { return s.Queued == 1 })

	go func() {
		defer close(offDone)
		err := p.Offload(ctx, func(context.Context) error { record("fn"); return nil })
		if err != nil {
			t.Errorf("Offload: %v", err)
		}
		record("caller")
		p.Release()
	}()
	// B got the caller's worker; the offloaded call waits as a continuation.
	waitFor(t, p, "fn waiting", func(s Stats) bool { return s.Continuations == 1 && s.Queued == 0 })
	go arrival("C", nil, cDone)
	waitFor(t, p, "C queued", func(s Stats) bool { return s.Queued == 1 })
	if err := p.Acquire(ctx); !errors.Is(err, ErrQueueFull) {
		t.Fatalf("arrival on a full queue = %v, want ErrQueueFull", err)
	}
	close(releaseB)
	<-offDone
	<-cDone
	<-bDone
	if got := strings.Join(order, ","); got != "B,fn,caller,C" {
		t.Fatalf("order = %s, want B,fn,caller,C", got)
	}
	if s := p.Stats(); s.Busy != 0 || s.Queued != 0 || s.Continuations != 0 {
		t.Fatalf("final stats = %+v, want an idle pool", s)
	}
}

// TestOffloadCancelledBeforeStart: fn never runs, the caller is let through
// on an overcommitted slot, and the accounting comes back to zero.
func TestOffloadCancelledBeforeStart(t *testing.T) {
	p := New(1, 1)
	bg := context.Background()
	if err := p.Acquire(bg); err != nil {
		t.Fatal(err)
	}
	releaseB, bDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(bDone)
		if err := p.Acquire(bg); err != nil {
			t.Errorf("B: %v", err)
			return
		}
		<-releaseB
		p.Release()
	}()
	waitFor(t, p, "B queued", func(s Stats) bool { return s.Queued == 1 })
	ctx, cancel := context.WithCancel(bg)
	errc := make(chan error, 1)
	called := false
	go func() { errc <- p.Offload(ctx, func(context.Context) error { called = true; return nil }) }()
	waitFor(t, p, "fn waiting", func(s Stats) bool { return s.Continuations == 1 })
	cancel()
	err := <-errc
	if !errors.Is(err, context.Canceled) || called {
		t.Fatalf("Offload = %v (fn called %v), want context.Canceled without running fn", err, called)
	}
	if s := p.Stats(); s.Busy != 2 {
		t.Fatalf("busy = %d, want 2 (B plus the caller's overcommitted slot)", s.Busy)
	}
	p.Release()
	close(releaseB)
	<-bDone
	if s := p.Stats(); s.Busy != 0 {
		t.Fatalf("busy = %d at the end, want 0", s.Busy)
	}
}

// TestOffloadSaturatedPoolCompletes is the starvation case of Do: every
// worker held by a caller that offloads, more callers queued. With Do this
// never finishes; with Offload every call completes.
func TestOffloadSaturatedPoolCompletes(t *testing.T) {
	p := New(2, 4)
	ctx := context.Background()
	var ran sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	maxBusy := 0
	for i := 0; i < 6; i++ {
		ran.Add(1)
		go func() {
			defer ran.Done()
			if err := p.Acquire(ctx); err != nil {
				t.Errorf("acquire: %v", err)
				return
			}
			defer p.Release()
			<-start
			err := p.Offload(ctx, func(context.Context) error {
				mu.Lock()
				maxBusy = max(maxBusy, p.Stats().Busy)
				mu.Unlock()
				time.Sleep(time.Millisecond) // a blocking call
				return nil
			})
			if err != nil {
				t.Errorf("Offload: %v", err)
			}
		}()
	}
	waitFor(t, p, "pool saturated", func(s Stats) bool { return s.Busy == 2 && s.Queued == 4 })
	close(start)
	ran.Wait()
	if maxBusy > 2 {
		t.Fatalf("busy reached %d, more than the pool's 2 workers", maxBusy)
	}
	if s := p.Stats(); s.Busy != 0 || s.Queued != 0 || s.Continuations != 0 {
		t.Fatalf("final stats = %+v, want an idle pool", s)
	}
}

// TestYieldBracketsTheWorkerlessWait checks WithYield's contract: the hook
// runs once the caller's worker is back in the pool, and its resume once the
// caller holds one again, for Await (around io, even when io panics) and
// Offload (around the wait for fn's worker, before fn).
func TestYieldBracketsTheWorkerlessWait(t *testing.T) {
	type key struct{}
	var p *Pool
	var events []string
	p = New(1, 0, WithYield(func(ctx context.Context) func() {
		events = append(events, fmt.Sprintf("yield %v busy=%d", ctx.Value(key{}), p.Stats().Busy))
		return func() { events = append(events, fmt.Sprintf("resume busy=%d", p.Stats().Busy)) }
	}))
	ctx := context.WithValue(context.Background(), key{}, "req")
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	_ = p.Await(ctx, func(context.Context) error { events = append(events, "io"); return nil })
	_ = p.Offload(ctx, func(context.Context) error { events = append(events, "fn"); return nil })
	func() {
		defer func() { _ = recover() }()
		_ = p.Await(ctx, func(context.Context) error { panic("io failed") })
	}()
	p.Release()
	want := []string{
		"yield req busy=0", "io", "resume busy=1",
		"yield req busy=0", "resume busy=1", "fn",
		"yield req busy=0", "resume busy=1",
	}
	if !slices.Equal(events, want) {
		t.Errorf("events\n%q\nwant\n%q", events, want)
	}
}
