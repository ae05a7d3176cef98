package after

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/semaphore"
)

// ErrShed is Limiter.Acquire's answer when no slot freed up within the
// limiter's wait: answer 503 with Retry-After rather than queue.
var ErrShed = errors.New("downstream limit reached")

// LittleLimit is the smallest limit that lets target calls a second
// through to a downstream that answers in latency: by Little's law, that
// many calls are in flight on average. Use the latency the downstream has
// AT that rate (its p90 or so under load, not its idle latency), and add
// headroom for bursts. A smaller limit caps the rate at limit ÷ latency,
// and the bound becomes a queue of its own.
func LittleLimit(target float64, latency time.Duration) int64 {
	return int64(math.Ceil(target * latency.Seconds()))
}

// Limiter bounds the calls in flight to one downstream. A caller that
// finds it full waits at most maxWait for a slot, then is shed: waiting
// longer would only move the queue from the downstream into this process,
// where it holds the request's goroutine, memory and the client's patience.
type Limiter struct {
	sem     *semaphore.Weighted
	limit   int64
	maxWait time.Duration

	inFlight, waiting, shed atomic.Int64
}

// NewLimiter returns a limiter of limit slots (size it with LittleLimit)
// whose callers wait at most maxWait for one; 0 sheds at once when full.
func NewLimiter(limit int64, maxWait time.Duration) *Limiter {
	return &Limiter{sem: semaphore.NewWeighted(limit), limit: limit, maxWait: maxWait}
}

// Acquire takes a slot. It returns ErrShed when none frees up within the
// limiter's wait, and ctx's error when ctx ends first (the client left).
// Every nil return must be paired with a Release.
func (l *Limiter) Acquire(ctx context.Context) error {
	if l.sem.TryAcquire(1) {
		l.inFlight.Add(1)
		return nil
	}
	if l.maxWait <= 0 {
		l.shed.Add(1)
		return ErrShed
	}
	l.waiting.Add(1)
	wctx, cancel := context.WithTimeout(ctx, l.maxWait)
	err := l.sem.Acquire(wctx, 1)
	cancel()
	l.waiting.Add(-1)
	switch {
	case err == nil:
		l.inFlight.Add(1)
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	default:
		l.shed.Add(1)
		return ErrShed
	}
}

// Release gives a slot back.
func (l *Limiter) Release() {
	l.inFlight.Add(-1)
	l.sem.Release(1)
}

// Waiting is the number of callers waiting for a slot now.
func (l *Limiter) Waiting() int64 { return l.waiting.Load() }

// Register exports the limiter's state under a downstream label:
// downstream_limit, downstream_in_flight, downstream_waiting (in flight at
// the limit with waiters above zero: the limit is the bottleneck; raise it
// if the downstream's own latency is flat) and downstream_shed_total.
func (l *Limiter) Register(reg prometheus.Registerer, downstream string) error {
	labels := prometheus.Labels{"downstream": downstream}
	gauge := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: labels}, f)
	}
	for _, c := range []prometheus.Collector{
		gauge("downstream_limit", "Calls the limiter lets in flight at once.", func() float64 { return float64(l.limit) }),
		gauge("downstream_in_flight", "Calls in flight now.", func() float64 { return float64(l.inFlight.Load()) }),
		gauge("downstream_waiting", "Callers waiting for a slot now.", func() float64 { return float64(l.waiting.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "downstream_shed_total", Help: "Calls shed because no slot freed up in time.", ConstLabels: labels,
		}, func() float64 { return float64(l.shed.Load()) }),
	} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}
