package after

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Detacher runs work that must outlive its request on a fixed number of
// workers, fed by a bounded queue: a burst of requests queues work or is
// told no, and never starts a goroutine (and a connection downstream)
// each.
type Detacher struct {
	jobs    chan job
	timeout time.Duration
	dropped prometheus.Counter

	mu     sync.RWMutex // held to send on jobs, and to close it
	closed bool

	stop    context.Context // done when Close gives up waiting
	cut     context.CancelFunc
	running atomic.Int64
	wg      sync.WaitGroup
}

type job struct {
	ctx context.Context
	fn  func(context.Context)
}

// NewDetacher starts workers that take jobs from a queue of the given
// length, each job under a deadline of timeout. dropped counts the jobs
// refused because the queue was full or closing; register it and alert on
// its rate.
func NewDetacher(workers, queue int, timeout time.Duration, dropped prometheus.Counter) *Detacher {
	d := &Detacher{jobs: make(chan job, queue), timeout: timeout, dropped: dropped}
	d.stop, d.cut = context.WithCancel(context.Background())
	d.wg.Add(workers)
	for range workers {
		go d.work()
	}
	return d
}

// Go queues fn, to run with ctx's values (trace IDs, the user) but not
// its cancellation, under a deadline of its own. It never waits: when the
// queue is full or closing it counts the job as dropped and reports
// false, and the caller decides (log it, or answer 503 if the work may
// not be lost).
func (d *Detacher) Go(ctx context.Context, fn func(context.Context)) bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if !d.closed {
		select {
		case d.jobs <- job{ctx: context.WithoutCancel(ctx), fn: fn}:
			return true
		default:
		}
	}
	d.dropped.Inc()
	return false
}

func (d *Detacher) work() {
	defer d.wg.Done()
	for j := range d.jobs {
		if d.stop.Err() != nil {
			continue // Close gave up: the queued jobs are dropped, and it reported them
		}
		d.run(j)
	}
}

func (d *Detacher) run(j job) {
	d.running.Add(1)
	defer d.running.Add(-1)
	ctx, cancel := context.WithTimeout(j.ctx, d.timeout)
	defer cancel()
	defer context.AfterFunc(d.stop, cancel)() // Close gave up: cut this job short
	j.fn(ctx)
}

// Close stops taking jobs and waits for the queued and running ones until
// ctx ends. Then it cancels the running jobs' contexts, drops the queued
// ones, and returns an error that says how many of each: work cut at
// shutdown is reported, not lost in silence.
func (d *Detacher) Close(ctx context.Context) error {
	d.mu.Lock()
	if !d.closed {
		d.closed = true
		close(d.jobs)
	}
	d.mu.Unlock()
	done := make(chan struct{})
	go func() {
		d.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		running, queued := d.running.Load(), len(d.jobs)
		d.cut()
		return fmt.Errorf("detached work cut at the shutdown deadline: %d running cancelled, %d queued dropped: %w",
			running, queued, ctx.Err())
	}
}

// Shutdown stops srv, then the detached work, within ctx's deadline:
// the server first, since its handlers may still queue work until they
// return. Give ctx a deadline shorter than the time the process is given
// to stop (Kubernetes' terminationGracePeriodSeconds, 30 s by default),
// so that the cut is reported before the process is killed.
func Shutdown(ctx context.Context, srv *http.Server, d *Detacher) error {
	return errors.Join(srv.Shutdown(ctx), d.Close(ctx))
}
