package activity

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
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
	// Time is when the event happened, to the precision a run can afford
	// without reading the clock per event (time.Now costs about 80 ns on
	// this project's VMs, more than the rest of an event):
	//   - behind a Buffered (alone or in a Multi), the Buffered's clock at
	//     the event: a tick behind real time at most (drainEvery, 1 ms),
	//     plus however long the tick goroutine waits for a CPU;
	//   - with no Buffered, the time the run handed its batch over: when it
	//     went idle to wait for I/O, when it ended, or when flushAt events
	//     had piled up. A long blocking Code activity's executing event can
	//     then be stamped as late as its closed event.
	// Either way events of one run arrive in the order they happened, and
	// Time never goes backwards within a run. Time has no monotonic reading.
	Time time.Time
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
//
// Runs of a workflow whose tracker is a Buffered take a faster path: they
// stamp events with the Buffered's coarse clock and hand over compact
// records, which the delivering goroutine turns into Events.
type Buffered struct {
	mu      sync.Mutex
	pending []Event   // from Track and TrackBatch
	recs    []rec     // from runs, described by hdrs
	hdrs    []recHdr  // one per hand-off
	origins []*origin // the workflows that hand records over, by recHdr.from
	errs    []error   // the faulted records' errors, in order
	limit   int       // bounds len(pending)+len(recs)
	next    Tracker
	dropped atomic.Uint64
	// clock is a coarse wall clock (Unix ns) for the runs that track into
	// this Buffered: the tick goroutine stores each tick's time, and a run
	// stamps an event with one atomic load instead of a time.Now (about
	// 80 ns on this project's VMs, more than all the rest of an event).
	// 0 once closed.
	clock   atomic.Int64
	wake    chan struct{}
	quit    chan struct{}
	stopped sync.WaitGroup
	once    sync.Once
}

// recHdr describes one hand-off of n records of one run; nerr of them are
// faulted and take their errors, in order, from Buffered.errs.
// It holds no pointers (the workflow is an index into Buffered.origins),
// so appending it costs no write barrier.
type recHdr struct {
	instance uint64
	from     uint32
	n, nerr  uint32
}

// drainEvery bounds how stale a buffered event gets, and is the resolution
// of the clock runs stamp their events with; size the buffer for the events
// a burst produces in that time.
const drainEvery = time.Millisecond

// NewBuffered starts delivering to next through a buffer of size events.
// Call Close to stop the delivering goroutines.
func NewBuffered(next Tracker, size int) *Buffered {
	size = max(size, 1)
	// Only recs are allocated up front: they hold no pointers, so the GC
	// never scans them, where a pending []Event of the same size would be
	// scanned whole at every cycle. pending grows on demand (public Track).
	b := &Buffered{recs: make([]rec, 0, size), limit: size, next: next,
		wake: make(chan struct{}, 1), quit: make(chan struct{})}
	b.clock.Store(time.Now().UnixNano())
	b.stopped.Add(2)
	go b.tick()
	go b.deliver()
	return b
}

// Track buffers ev, or drops it if the buffer is full. It never blocks on
// the sink.
func (b *Buffered) Track(ev Event) {
	b.mu.Lock()
	if len(b.pending)+len(b.recs) < b.limit {
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
	n := max(min(len(evs), b.limit-len(b.pending)-len(b.recs)), 0)
	b.pending = append(b.pending, evs[:n]...)
	b.mu.Unlock()
	if n < len(evs) {
		b.dropped.Add(uint64(len(evs) - n))
	}
}

// put is a run's hand-off: as many of recs as fit, in one short lock.
func (b *Buffered) put(from uint32, instance uint64, recs []rec, errs []error) {
	b.mu.Lock()
	n := max(min(len(recs), b.limit-len(b.pending)-len(b.recs)), 0)
	if n > 0 {
		nerr := len(errs)
		if n < len(recs) {
			nerr = faults(recs[:n])
		}
		b.recs = append(b.recs, recs[:n]...)
		b.errs = append(b.errs, errs[:nerr]...)
		b.hdrs = append(b.hdrs, recHdr{instance: instance, from: from, n: uint32(n), nerr: uint32(nerr)})
	}
	b.mu.Unlock()
	if n < len(recs) {
		b.dropped.Add(uint64(len(recs) - n))
	}
}

// register adds a workflow's origin; put names it by the returned index.
func (b *Buffered) register(o *origin) uint32 {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.origins = append(b.origins, o)
	return uint32(len(b.origins) - 1)
}

// Dropped returns how many events were dropped because the buffer was full.
func (b *Buffered) Dropped() uint64 { return b.dropped.Load() }

// Close delivers what is already buffered, then stops. Events tracked after
// Close are buffered or dropped but never delivered.
func (b *Buffered) Close() {
	b.once.Do(func() { close(b.quit) })
	b.stopped.Wait()
}

// tick advances the clock and wakes deliver every drainEvery. It is a
// goroutine of its own so that a sink that takes long (or blocks) delays
// delivery but never freezes the clock that runs stamp their events with.
func (b *Buffered) tick() {
	defer b.stopped.Done()
	t := time.NewTicker(drainEvery)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			b.clock.Store(now.UnixNano())
			select {
			case b.wake <- struct{}{}:
			default: // deliver is still busy; its next drain takes everything anyway
			}
		case <-b.quit:
			b.clock.Store(0) // runs fall back to time.Now
			return
		}
	}
}

// deliver polls (through tick) instead of being signalled per event: waking
// a goroutine on every Track would cost the run more than the event itself.
func (b *Buffered) deliver() {
	defer b.stopped.Done()
	var sp spares
	sp.recs = make([]rec, 0, b.limit)
	for {
		select {
		case <-b.wake:
		case <-b.quit:
			b.drain(&sp)
			return
		}
		// While events pour in, drain again at once instead of at the next
		// tick: a drain that comes soon finds the events the runs just
		// wrote still in cache, and the buffers stay small, where waiting a
		// whole tick lets them grow to megabytes that every run then writes
		// to cold memory. (Measured: at basic's ~25 M events/s this is most
		// of the tracking cost.) A quiet Buffered stays on the tick.
		for b.drain(&sp) >= drainAgain {
			select {
			case <-b.quit:
				b.drain(&sp)
				return
			default:
				runtime.Gosched()
			}
		}
	}
}

// drainAgain is how many events a drain must find for deliver to drain
// again without waiting for the tick.
const drainAgain = 256

// spares are the buffers deliver swaps in at each drain; after the drain
// they hold the swapped-out buffers, emptied, for the next one.
type spares struct {
	pending, scratch []Event
	recs             []rec
	hdrs             []recHdr
	errs             []error
}

// drain swaps the buffers for the spares under the lock and delivers the
// swapped-out events without it.
func (b *Buffered) drain(sp *spares) int {
	b.mu.Lock()
	pending, recs, hdrs, errs, origins := b.pending, b.recs, b.hdrs, b.errs, b.origins
	b.pending, b.recs, b.hdrs, b.errs = sp.pending[:0], sp.recs[:0], sp.hdrs[:0], sp.errs[:0]
	b.mu.Unlock()
	send(b.next, pending)
	clear(pending) // let errors be collected
	r, e := 0, 0
	for _, h := range hdrs {
		n, nerr := int(h.n), int(h.nerr)
		sp.scratch = origins[h.from].expand(sp.scratch[:0], h.instance, recs[r:r+n], errs[e:e+nerr])
		send(b.next, sp.scratch)
		r, e = r+n, e+nerr
	}
	// Drop the references the Events and errors hold; recs hold none.
	clear(sp.scratch)
	clear(errs)
	clear(hdrs)
	sp.pending, sp.recs, sp.hdrs, sp.errs = pending[:0], recs[:0], hdrs[:0], errs[:0]
	return len(pending) + len(recs)
}

// send hands evs to t, in one call if t takes batches.
func send(t Tracker, evs []Event) {
	if len(evs) == 0 {
		return
	}
	if bt, ok := t.(BatchTracker); ok {
		bt.TrackBatch(evs)
		return
	}
	for i := range evs {
		t.Track(evs[i])
	}
}

// rec is one event as a run records it: 16 bytes and no pointers, so that
// recording and copying it costs no GC write barriers and the buffers
// holding it are never scanned. Its workflow and instance are the batch's,
// its activity is an index into origin.paths (0 for workflow events), and
// a faulted record's error is the batch's next error.
type rec struct {
	at   int64 // Unix ns
	act  uint32
	kind Kind
}

func (r rec) faulted() bool { return r.kind == WorkflowFaulted || r.kind == ActivityFaulted }

// faults counts the faulted records in recs.
func faults(recs []rec) int {
	n := 0
	for _, r := range recs {
		if r.faulted() {
			n++
		}
	}
	return n
}

// origin is what turns a workflow's records back into Events.
type origin struct {
	workflow string
	paths    []string // by activity id; paths[0] is "" (the workflow itself)
}

// expand appends recs, with their errors errs, to dst as Events.
func (o *origin) expand(dst []Event, instance uint64, recs []rec, errs []error) []Event {
	for _, r := range recs {
		ev := Event{Kind: r.kind, Workflow: o.workflow, Instance: instance, Activity: o.paths[r.act], Time: time.Unix(0, r.at)}
		if r.faulted() && len(errs) > 0 {
			ev.Err, errs = errs[0], errs[1:]
		}
		dst = append(dst, ev)
	}
	return dst
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

// TrackBatch stores evs under one lock, in at most two copies.
func (r *Ring) TrackBatch(evs []Event) {
	if len(evs) > len(r.buf) {
		evs = evs[len(evs)-len(r.buf):] // the rest would be overwritten anyway
	}
	r.mu.Lock()
	n := copy(r.buf[r.next:], evs)
	if n < len(evs) {
		r.next = copy(r.buf, evs[n:])
		r.full = true
	} else if r.next += n; r.next == len(r.buf) {
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
	cs := []prometheus.Collector{m.started, m.completed, m.faulted}
	for i, c := range cs {
		if err := reg.Register(c); err != nil {
			// All or nothing: a half-registered set would make a retry
			// with another registry-sharing caller fail on the first name.
			for _, done := range cs[:i] {
				reg.Unregister(done)
			}
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
