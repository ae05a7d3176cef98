package slots

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/syncio/syncio/blockwatch"
)

// The metric names /metrics serves.
const (
	MetricInUse   = "slots_in_use"
	MetricWaiting = "slots_waiting"
	MetricTotal   = "slots_total"
)

// SlotResource is the name the slots are held under (blockwatch.Hold),
// for blockwatch.WithWorker.
const SlotResource = "slot"

type config struct {
	slots, queue int
	backend      time.Duration
	watcher      *blockwatch.Watcher
}

// Option configures the service.
type Option func(*config)

// WithSlots sets how many slots there are (default 4).
func WithSlots(n int) Option { return func(c *config) { c.slots = n } }

// WithQueue sets how many requests may wait for a slot before the rest get
// 503 (default 64).
func WithQueue(n int) Option { return func(c *config) { c.queue = n } }

// WithBackendLatency sets how long the backend takes to answer (default
// 100 ms).
func WithBackendLatency(d time.Duration) Option { return func(c *config) { c.backend = d } }

// WithWatcher wires a blocking watcher in: each route's requests are
// labelled with the route, a request holding a slot says so (the slot is
// SlotResource), /metrics adds the watcher's collector and
// /debug/syncio/blocking serves its report. The caller creates the
// watcher with blockwatch.WithWorker(SlotResource) and runs it.
func WithWatcher(w *blockwatch.Watcher) Option { return func(c *config) { c.watcher = w } }

// service holds the slots. A buffered channel is the semaphore; a second
// one bounds the waiters, so a full queue turns into a quick 503 instead
// of an ever longer wait.
type service struct {
	cfg     config
	slots   chan struct{}
	waiters chan struct{}
	inUse   prometheus.Gauge
	waiting prometheus.Gauge
}

// New returns the service's handler: /held, /released and /metrics.
func New(opts ...Option) http.Handler {
	cfg := config{slots: 4, queue: 64, backend: 100 * time.Millisecond}
	for _, o := range opts {
		o(&cfg)
	}
	reg := prometheus.NewRegistry()
	s := &service{
		cfg:     cfg,
		slots:   make(chan struct{}, cfg.slots),
		waiters: make(chan struct{}, cfg.queue),
		inUse:   prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricInUse, Help: "Slots held by a request."}),
		waiting: prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricWaiting, Help: "Requests waiting for a slot."}),
	}
	total := prometheus.NewGauge(prometheus.GaugeOpts{Name: MetricTotal, Help: "Slots in all."})
	total.Set(float64(cfg.slots))
	reg.MustRegister(s.inUse, s.waiting, total)

	mux := http.NewServeMux()
	route := func(pattern string, h http.HandlerFunc) {
		if cfg.watcher != nil {
			mux.Handle(pattern, blockwatch.Label(pattern, h))
			return
		}
		mux.Handle(pattern, h)
	}
	route("GET /held", s.held)
	route("GET /released", s.released)
	if cfg.watcher != nil {
		reg.MustRegister(blockwatch.NewCollector(cfg.watcher))
		mux.Handle("GET /debug/syncio/blocking", cfg.watcher)
	}
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	return mux
}

// held keeps its slot across the backend wait, so the slots, not the
// backend, cap the throughput at Slots ÷ backend latency.
func (s *service) held(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	release, ok := s.acquire(ctx, w)
	if !ok {
		return
	}
	defer release()
	if err := s.backend(ctx); err != nil {
		return // the client went away
	}
	writeJSON(w, http.StatusOK, map[string]string{"endpoint": "held"})
}

// released holds a slot only around the wait, as a handler that gives
// its connection back before a remote call would.
func (s *service) released(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	release, ok := s.acquire(ctx, w)
	if !ok {
		return
	}
	release() // the request's own work before the call is done
	if err := s.backend(ctx); err != nil {
		return
	}
	if release, ok = s.acquire(ctx, w); !ok {
		return
	}
	defer release()
	writeJSON(w, http.StatusOK, map[string]string{"endpoint": "released"})
}

// acquire takes a slot, waiting in the bounded queue when none is free;
// it answers 503 itself when the queue is full too, or gives up when the
// request is cancelled. release gives the slot back.
func (s *service) acquire(ctx context.Context, w http.ResponseWriter) (release func(), ok bool) {
	select {
	case s.slots <- struct{}{}:
		return s.took(ctx), true
	default:
	}
	select {
	case s.waiters <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "all slots busy and the queue is full", "code": "overloaded"})
		return nil, false
	}
	s.waiting.Inc()
	defer func() {
		<-s.waiters //syncio:ignore SIO005 -- returns our own token: never waits
		s.waiting.Dec()
	}()
	select {
	case s.slots <- struct{}{}:
		return s.took(ctx), true
	case <-ctx.Done():
		return nil, false
	}
}

// took counts the slot just taken, and marks the goroutine as holding it
// for a watcher (a no-op without one), until the returned release.
func (s *service) took(ctx context.Context) (release func()) {
	s.inUse.Inc()
	_, unhold := blockwatch.Hold(ctx, SlotResource)
	return func() {
		unhold()
		s.inUse.Dec()
		<-s.slots // gives back the slot this request holds: never waits
	}
}

// backend stands for a remote call that answers after the configured
// latency, or as soon as the request is cancelled.
func (s *service) backend(ctx context.Context) error {
	t := time.NewTimer(s.cfg.backend)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client may be gone; nothing to do about it
}
