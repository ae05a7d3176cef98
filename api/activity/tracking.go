package activity

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Profile selects which events a workflow emits.
type Profile uint8

const (
	// ProfileNone emits nothing and costs nothing.
	ProfileNone Profile = iota
	// ProfileHealth emits workflow started, completed and faulted.
	ProfileHealth
	// ProfileBasic adds each activity's executing, closed and faulted.
	ProfileBasic
)

// Kind is the type of a tracking event.
type Kind uint8

// Event kinds. The first three belong to ProfileHealth, the rest to
// ProfileBasic.
const (
	WorkflowStarted Kind = iota
	WorkflowCompleted
	WorkflowFaulted
	ActivityExecuting
	ActivityClosed
	ActivityFaulted
)

var kindNames = [...]string{"workflow_started", "workflow_completed", "workflow_faulted",
	"activity_executing", "activity_closed", "activity_faulted"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one tracking record.
type Event struct {
	Kind     Kind
	Workflow string
	Instance uint64 // run number within the workflow, from 1
	Activity string // activity path; empty for workflow events
	Err      error  // for the faulted kinds
	Time     time.Time
}

// Tracker receives events. Track is called on the run's goroutine, so it
// must return quickly; a sink that may block belongs behind a Buffered.
type Tracker interface {
	Track(Event)
}

// Multi sends every event to each of its trackers in turn.
type Multi []Tracker

// Track fans ev out.
func (m Multi) Track(ev Event) {
	for _, t := range m {
		t.Track(ev)
	}
}

// BatchTracker is implemented by trackers that can take several events in
// one call. A run hands its events over in batches (when it goes idle and
// when it ends), which costs one hand-off per batch instead of one per
// event. TrackBatch must not keep evs after it returns.
type BatchTracker interface {
	Tracker
	TrackBatch(evs []Event)
}

// TrackBatch fans a batch out, in one call to trackers that take batches.
func (m Multi) TrackBatch(evs []Event) {
	for _, t := range m {
		if bt, ok := t.(BatchTracker); ok {
			bt.TrackBatch(evs)
			continue
		}
		for i := range evs {
			t.Track(evs[i])
		}
	}
}

// Buffered decouples runs from a slow sink, as ETW does: Track appends the
// event to a bounded buffer under a short lock, never waiting for the sink,
// and drops (and counts) events once the buffer is full. A goroutine hands
// the buffer to the sink every millisecond.
type Buffered struct {
	mu      sync.Mutex
	pending []Event
	limit   int
	next    Tracker
	dropped atomic.Uint64
	quit    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

// drainEvery bounds how stale a buffered event gets; size the buffer for the
// events a burst produces in that time.
const drainEvery = time.Millisecond

// NewBuffered starts delivering to next through a buffer of size events.
// Call Close to stop the delivering goroutine.
func NewBuffered(next Tracker, size int) *Buffered {
	b := &Buffered{pending: make([]Event, 0, max(size, 1)), limit: max(size, 1), next: next,
		quit: make(chan struct{}), stopped: make(chan struct{})}
	go b.deliver()
	return b
}

// Track buffers ev, or drops it if the buffer is full. It never blocks on
// the sink.
func (b *Buffered) Track(ev Event) {
	b.mu.Lock()
	if len(b.pending) < b.limit {
		b.pending = append(b.pending, ev)
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	b.dropped.Add(1)
}

// TrackBatch buffers as many of evs as fit and drops the rest.
func (b *Buffered) TrackBatch(evs []Event) {
	b.mu.Lock()
	n := min(len(evs), b.limit-len(b.pending))
	b.pending = append(b.pending, evs[:n]...)
	b.mu.Unlock()
	if n < len(evs) {
		b.dropped.Add(uint64(len(evs) - n))
	}
}

// Dropped returns how many events were dropped because the buffer was full.
func (b *Buffered) Dropped() uint64 { return b.dropped.Load() }

// Close delivers what is already buffered, then stops. Events tracked after
// Close are buffered or dropped but never delivered.
func (b *Buffered) Close() {
	b.once.Do(func() { close(b.quit) })
	<-b.stopped
}

// deliver polls instead of being signalled per event: waking a goroutine on
// every Track would cost the run more than the event itself.
func (b *Buffered) deliver() {
	defer close(b.stopped)
	tick := time.NewTicker(drainEvery)
	defer tick.Stop()
	spare := make([]Event, 0, b.limit)
	for {
		select {
		case <-tick.C:
		case <-b.quit:
			b.drain(spare)
			return
		}
		spare = b.drain(spare)
	}
}

// drain swaps the buffer for spare under the lock, delivers the swapped-out
// events without it, and returns that slice emptied, as the next spare.
func (b *Buffered) drain(spare []Event) []Event {
	b.mu.Lock()
	full := b.pending
	b.pending = spare[:0]
	b.mu.Unlock()
	for i := range full {
		b.next.Track(full[i])
		full[i] = Event{} // let errors be collected
	}
	return full[:0]
}

// Collector exposes the drop count as syncio_tracking_dropped_total.
func (b *Buffered) Collector() prometheus.Collector {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "syncio_tracking_dropped_total",
		Help: "Tracking events dropped because the tracking buffer was full.",
	}, func() float64 { return float64(b.Dropped()) })
}

// Ring keeps the last N events in memory, for tests and debug pages.
type Ring struct {
	mu   sync.Mutex
	buf  []Event
	next int
	full bool
}

// NewRing returns a ring holding up to n events.
func NewRing(n int) *Ring {
	if n < 1 {
		n = 1
	}
	return &Ring{buf: make([]Event, n)}
}

// Track stores ev, overwriting the oldest event when full.
func (r *Ring) Track(ev Event) {
	r.mu.Lock()
	r.buf[r.next] = ev
	r.next++
	if r.next == len(r.buf) {
		r.next, r.full = 0, true
	}
	r.mu.Unlock()
}

// Events returns the stored events, oldest first.
func (r *Ring) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]Event(nil), r.buf[:r.next]...)
	}
	out := make([]Event, 0, len(r.buf))
	out = append(out, r.buf[r.next:]...)
	return append(out, r.buf[:r.next]...)
}

// Logger writes events to a slog.Logger: faults at Warn, the rest at Debug.
type Logger struct {
	log *slog.Logger
}

// NewLogger returns a Tracker that logs to l.
func NewLogger(l *slog.Logger) *Logger { return &Logger{log: l} }

// Track logs ev.
func (l *Logger) Track(ev Event) {
	level := slog.LevelDebug
	attrs := []slog.Attr{
		slog.String("workflow", ev.Workflow),
		slog.Uint64("instance", ev.Instance),
	}
	if ev.Activity != "" {
		attrs = append(attrs, slog.String("activity", ev.Activity))
	}
	if ev.Err != nil {
		level = slog.LevelWarn
		attrs = append(attrs, slog.String("error", ev.Err.Error()))
	}
	l.log.LogAttrs(context.Background(), level, ev.Kind.String(), attrs...)
}

// Metrics turns health events into Prometheus counters:
// syncio_workflows_started_total, syncio_workflows_completed_total and
// syncio_workflows_faulted_total, labelled by workflow. Counters are atomic,
// so Metrics is safe to use directly, without a Buffered.
type Metrics struct {
	started, completed, faulted *prometheus.CounterVec
}

// NewMetrics registers the workflow counters with reg.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	mk := func(name, help string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"workflow"})
	}
	m := &Metrics{
		started:   mk("syncio_workflows_started_total", "Workflow runs started."),
		completed: mk("syncio_workflows_completed_total", "Workflow runs completed successfully."),
		faulted:   mk("syncio_workflows_faulted_total", "Workflow runs that faulted."),
	}
	for _, c := range []prometheus.Collector{m.started, m.completed, m.faulted} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("activity: register workflow metrics: %w", err)
		}
	}
	return m, nil
}

// Track counts health events and ignores activity events.
func (m *Metrics) Track(ev Event) {
	switch ev.Kind {
	case WorkflowStarted:
		m.started.WithLabelValues(ev.Workflow).Inc()
	case WorkflowCompleted:
		m.completed.WithLabelValues(ev.Workflow).Inc()
	case WorkflowFaulted:
		m.faulted.WithLabelValues(ev.Workflow).Inc()
	}
}
