package api

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// byteGate bounds the upload bytes the async route holds at once: an
// upload is admitted only if what it can hold (its declared size, up to the
// streaming buffers) still fits under max. The async route gives its worker
// back while bodies arrive, so the worker pool does not bound it; without
// this gate, 2000 concurrent uploads held 1.95 GB.
type byteGate struct {
	mu       sync.Mutex
	used     int64
	max      int64
	gauge    prometheus.Gauge
	rejected prometheus.Counter
}

func newByteGate(max int64, reg prometheus.Registerer) *byteGate {
	g := &byteGate{
		max: max,
		gauge: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_upload_inflight_bytes",
			Help: "Upload bytes the async upload route has admitted and may hold in buffers right now.",
		}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "syncio_upload_rejected_total",
			Help: "Async uploads answered 503 because admitting them would pass the in-flight byte bound.",
		}),
	}
	reg.MustRegister(g.gauge, g.rejected,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "syncio_upload_inflight_max_bytes",
			Help: "The bound on syncio_upload_inflight_bytes (-max-inflight-bytes).",
		}, func() float64 { return float64(max) }))
	return g
}

// acquire admits n bytes, or reports false at once if they do not fit.
func (g *byteGate) acquire(n int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.used+n > g.max {
		g.rejected.Inc()
		return false
	}
	g.used += n
	g.gauge.Set(float64(g.used))
	return true
}

func (g *byteGate) release(n int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.used -= n
	g.gauge.Set(float64(g.used))
}

// inUse returns the bytes admitted now.
func (g *byteGate) inUse() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.used
}

// slotGate bounds the uploads the async route runs at once, by count: the
// byte gate never binds on small bodies, and what an upload in flight costs
// is mostly not its bytes but its request to storage (azblob's pipeline,
// its buffer, the goroutine and stack that carry it). An upload past the
// bound waits for a slot before it reads a byte of its body, holding no
// worker and no buffer: its body stays in the socket.
type slotGate struct {
	sem     chan struct{}
	peak    atomic.Int64 // most slots ever held at once, for tests
	held    atomic.Int64
	running prometheus.Gauge
	waiting prometheus.Gauge
	timeout prometheus.Counter
}

func newSlotGate(max int, reg prometheus.Registerer) *slotGate {
	g := &slotGate{
		sem: make(chan struct{}, max),
		running: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_upload_inflight_uploads",
			Help: "Async uploads holding a slot (reading their body or writing it to storage) right now.",
		}),
		waiting: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_upload_waiting_uploads",
			Help: "Async uploads waiting for a slot, their bodies unread, right now.",
		}),
		timeout: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "syncio_upload_slot_timeouts_total",
			Help: "Async uploads that stopped waiting for a slot: none freed within the upstream timeout (503 uploads_busy) or the client left.",
		}),
	}
	reg.MustRegister(g.running, g.waiting, g.timeout,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "syncio_upload_inflight_max_uploads",
			Help: "The bound on syncio_upload_inflight_uploads (-max-inflight-uploads).",
		}, func() float64 { return float64(max) }))
	return g
}

// acquire takes a slot, waiting in arrival order until one frees or ctx
// ends (then it returns ctx's error).
func (g *slotGate) acquire(ctx context.Context) error {
	select {
	case g.sem <- struct{}{}:
	default:
		g.waiting.Inc()
		select {
		case g.sem <- struct{}{}:
			g.waiting.Dec()
		case <-ctx.Done():
			g.waiting.Dec()
			g.timeout.Inc()
			return ctx.Err()
		}
	}
	n := g.held.Add(1)
	g.running.Set(float64(n))
	for p := g.peak.Load(); n > p && !g.peak.CompareAndSwap(p, n); p = g.peak.Load() {
	}
	return nil
}

func (g *slotGate) release() {
	g.running.Set(float64(g.held.Add(-1)))
	<-g.sem
}
