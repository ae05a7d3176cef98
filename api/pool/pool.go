package pool

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// ErrQueueFull is returned by Acquire (and Do) when every worker is busy and
// the admission queue is at capacity. Callers should shed the request at once
// (HTTP 503 with Retry-After) instead of waiting.
var ErrQueueFull = errors.New("pool: admission queue full")

// Stats is a point-in-time snapshot of a Pool.
type Stats struct {
	Workers       int    // size of the pool
	Busy          int    // workers currently held
	Queued        int    // new arrivals waiting in the admission queue
	Continuations int    // Await callers waiting to get a worker back
	Rejected      uint64 // arrivals turned away with ErrQueueFull, ever
}

// Option configures a Pool.
type Option func(*options)

type options struct {
	reg     prometheus.Registerer
	buckets []float64
	yield   func(context.Context) func()
}

// WithRegisterer registers the pool's metrics (syncio_pool_*) with reg.
// Without it the pool keeps its metrics unregistered, which is what tests and
// multiple pools in one process usually want.
func WithRegisterer(reg prometheus.Registerer) Option {
	return func(o *options) { o.reg = reg }
}

// WithQueueWaitBuckets overrides the histogram buckets, in seconds, of
// syncio_pool_queue_wait_seconds. The default spans 1 ms to about 2 minutes,
// because a saturated synchronous endpoint can queue for a minute.
func WithQueueWaitBuckets(b []float64) Option {
	return func(o *options) { o.buckets = b }
}

// WithYield sets a hook for the moments a caller gives its worker back to
// wait: Await calls it (with Await's context) before io and Offload before
// it waits for fn's worker, and runs the function it returns once the caller
// holds a worker again. A run-time watcher (blockwatch.Drop) uses it to count
// those waits as holding no worker; the pool itself knows nothing of it.
func WithYield(f func(ctx context.Context) (resume func())) Option {
	return func(o *options) { o.yield = f }
}

// waiter is one goroutine blocked in Acquire or in Await's re-acquire.
type waiter struct {
	ready   chan struct{} // closed when a worker has been handed to this waiter
	granted bool          // set under Pool.mu together with closing ready
	elem    *list.Element // position in its queue while waiting
}

// Pool is a fixed set of worker slots with a bounded FIFO admission queue and
// an unbounded continuation queue that has priority over it. The zero value is
// not usable; call New.
type Pool struct {
	workers  int
	capacity int

	mu       sync.Mutex
	busy     int
	arrivals list.List // of *waiter, bounded by capacity
	conts    list.List // of *waiter, continuations from Await
	rejected uint64

	yield func(context.Context) func()
	m     metrics
}

// New returns a pool with the given number of workers (at least 1) and
// admission queue capacity (0 means: reject whenever all workers are busy).
func New(workers, queue int, opts ...Option) *Pool {
	if workers < 1 {
		workers = 1
	}
	if queue < 0 {
		queue = 0
	}
	o := options{buckets: prometheus.ExponentialBuckets(0.001, 2, 18)}
	for _, opt := range opts {
		opt(&o)
	}
	p := &Pool{workers: workers, capacity: queue, yield: o.yield, m: newMetrics(o.buckets)}
	if p.yield == nil {
		p.yield = func(context.Context) func() { return func() {} }
	}
	p.m.workers.Set(float64(workers))
	if o.reg != nil {
		p.m.register(o.reg)
	}
	return p
}

// Acquire obtains a worker for a new arrival. If none is free the caller
// waits in FIFO order behind earlier arrivals (and behind every waiting
// continuation). It returns ErrQueueFull at once when the queue is at
// capacity, and ctx.Err() if ctx ends while queued; in both cases the caller
// holds no worker and must not call Release.
func (p *Pool) Acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p.mu.Lock()
	// A free worker goes to a new arrival only when nobody is waiting, so
	// that arrivals cannot overtake the queue (FIFO) or continuations.
	if p.busy < p.workers && p.arrivals.Len() == 0 && p.conts.Len() == 0 {
		p.busy++
		p.m.busy.Set(float64(p.busy))
		p.mu.Unlock()
		p.m.wait.Observe(0)
		return nil
	}
	if p.arrivals.Len() >= p.capacity {
		p.rejected++
		p.mu.Unlock()
		p.m.rejected.Inc()
		return ErrQueueFull
	}
	w := &waiter{ready: make(chan struct{})}
	w.elem = p.arrivals.PushBack(w)
	p.m.queue.Set(float64(p.arrivals.Len()))
	p.mu.Unlock()

	start := time.Now()
	select {
	case <-w.ready:
		p.m.wait.Observe(time.Since(start).Seconds())
		return nil
	case <-ctx.Done():
	}

	p.mu.Lock()
	if w.granted {
		// The worker arrived at the same moment the context ended. The
		// request is dropped anyway, so pass the worker on.
		p.releaseLocked()
	} else {
		p.arrivals.Remove(w.elem)
		p.m.queue.Set(float64(p.arrivals.Len()))
	}
	p.mu.Unlock()
	return fmt.Errorf("pool: dropped while queued: %w", ctx.Err())
}

// Release gives a worker back. If anyone is waiting, the worker is handed
// over directly: the oldest continuation first, else the oldest arrival.
func (p *Pool) Release() {
	p.mu.Lock()
	p.releaseLocked()
	p.mu.Unlock()
}

func (p *Pool) releaseLocked() {
	if p.busy <= 0 {
		panic("pool: Release without a held worker")
	}
	var next *list.List
	switch {
	case p.busy > p.workers:
		// An overcommitted slot (see Await) is going away: the pool is back
		// to its size, and no worker became free to hand over.
		p.busy--
		p.m.busy.Set(float64(p.busy))
		return
	case p.conts.Len() > 0:
		next = &p.conts
	case p.arrivals.Len() > 0:
		next = &p.arrivals
	default:
		p.busy--
		p.m.busy.Set(float64(p.busy))
		return
	}
	w := next.Remove(next.Front()).(*waiter)
	w.granted = true
	close(w.ready)
	p.m.queue.Set(float64(p.arrivals.Len()))
}

// Await runs io without holding a worker. The caller must hold one when it
// calls Await; Await hands it back for the duration of io (so other requests
// can run) and then takes a worker again with continuation priority: ahead of
// every new arrival and never rejected.
//
// Await always returns holding a worker, even when io fails or panics, so the
// caller's single Release stays balanced. If ctx ends while the continuation
// waits for a worker, Await stops waiting and lets the caller through at once
// on an overcommitted slot: the pool runs one request more than its size until
// that caller's Release, which then frees no worker. The request is dead and
// only needs to clean up; making it wait would pin its goroutine to a worker
// nobody wants.
func (p *Pool) Await(ctx context.Context, io func(context.Context) error) (err error) {
	p.Release()
	resume := p.yield(ctx)
	defer func() {
		rerr := p.reacquire(ctx)
		resume()
		if rerr != nil && err == nil {
			err = rerr
		}
	}()
	return io(ctx)
}

// reacquire takes a worker for a continuation, or an overcommitted slot if
// ctx ends first (then it returns the context's error).
func (p *Pool) reacquire(ctx context.Context) error {
	p.mu.Lock()
	if p.busy < p.workers && p.conts.Len() == 0 {
		p.busy++
		p.m.busy.Set(float64(p.busy))
		p.mu.Unlock()
		return nil
	}
	w := &waiter{ready: make(chan struct{})}
	w.elem = p.conts.PushBack(w)
	p.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if w.granted {
		return nil // a real worker arrived at the same moment; keep it
	}
	p.conts.Remove(w.elem)
	p.busy++ // overcommit; releaseLocked takes it back without a hand-off
	p.m.busy.Set(float64(p.busy))
	return fmt.Errorf("pool: continuation abandoned: %w", ctx.Err())
}

// Do runs fn on a worker of its own: Acquire, fn, Release. It queues as a
// new arrival, so a caller that already holds a worker must not use it to
// wait for fn: under saturation every worker would be held by callers whose
// fn is queued behind new arrivals that no worker will ever serve. Offload is
// the safe way to push work onto another worker.
func (p *Pool) Do(ctx context.Context, fn func(context.Context) error) error {
	if err := p.Acquire(ctx); err != nil {
		return err
	}
	defer p.Release()
	return fn(ctx)
}

// Offload runs fn on another worker while the caller waits without one: the
// Go counterpart of .NET's `await Task.Run(blocking)`. The caller must hold a
// worker. Offload hands it back (like Await) and takes a worker for fn with
// continuation priority: ahead of every new arrival and never rejected. When
// fn returns, the worker that ran it passes straight to the caller, much as
// .NET runs an await continuation inline on the thread that completed the
// task. At no point does the request hold more than one worker, so it scales
// like a synchronous handler (one worker blocked per in-flight call), not
// worse. Do, by contrast, keeps the caller's worker and queues fn as a new
// arrival, which can deadlock a saturated pool.
//
// Offload returns holding a worker, even when fn fails or panics. If ctx
// ends before fn gets a worker, fn does not run, the context's error is
// returned, and the caller continues on an overcommitted slot as described on
// Await.
func (p *Pool) Offload(ctx context.Context, fn func(context.Context) error) error {
	p.Release()
	resume := p.yield(ctx)
	err := p.reacquire(ctx)
	resume()
	if err != nil {
		return fmt.Errorf("pool: offloaded call never started: %w", err)
	}
	return fn(ctx)
}

// Stats returns a snapshot of the pool's state.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Stats{
		Workers:       p.workers,
		Busy:          p.busy,
		Queued:        p.arrivals.Len(),
		Continuations: p.conts.Len(),
		Rejected:      p.rejected,
	}
}
