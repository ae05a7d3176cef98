package activity

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Executor supplies the worker a run executes on. *pool.Pool satisfies it.
//
// Acquire takes a worker for a new run and Release gives it back. Await is
// called by a run that holds a worker and has nothing to do but wait for
// I/O: it must release the worker while io runs and return holding one
// again (with priority over new arrivals, so started runs finish first).
type Executor interface {
	Acquire(ctx context.Context) error
	Release()
	Await(ctx context.Context, io func(context.Context) error) error
}

// Unlimited is an Executor with no worker limit: Acquire always succeeds at
// once. It suits tests, benchmarks and callers that bound work elsewhere.
type Unlimited struct{}

// Acquire returns nil.
func (Unlimited) Acquire(context.Context) error { return nil }

// Release does nothing.
func (Unlimited) Release() {}

// Await runs io.
func (Unlimited) Await(ctx context.Context, io func(context.Context) error) error { return io(ctx) }

// Option configures a Workflow.
type Option func(*config)

type config struct {
	tracker Tracker
	profile Profile
	buf     *Buffered     // the tracker, when it is a Buffered: runs hand it records
	clock   *atomic.Int64 // stamps events: a Buffered's clock, or noClock; see clockOf
	origin  *origin
	from    uint32 // origin's index in buf
}

// WithTracking sends the events of profile p to t. t is called on the run's
// goroutine, so it must not block: wrap slow sinks in a Buffered.
func WithTracking(t Tracker, p Profile) Option {
	return func(c *config) { c.tracker, c.profile = t, p }
}

// Workflow is a built, immutable workflow template with input I and output O.
// It is safe to Run concurrently: runs share the tree and nothing else.
type Workflow[I, O any] struct {
	name  string
	root  Activity
	scope *Scope
	in    Var[I]
	out   Var[O]
	cfg   config
	seq   atomic.Uint64
}

// New builds a workflow. build is called once with the root scope (declare
// workflow variables in it) and the input and output variables; the
// activity it returns is the root, whose path prefixes every activity path.
func New[I, O any](name string, build func(s *Scope, in Var[I], out Var[O]) Activity, opts ...Option) *Workflow[I, O] {
	w := &Workflow[I, O]{name: name, scope: &Scope{}}
	w.in = Declare[I](w.scope, "in")
	w.out = Declare[O](w.scope, "out")
	w.root = build(w.scope, w.in, w.out)
	if w.root == nil {
		panic("activity: workflow " + name + " has no root activity")
	}
	for _, o := range opts {
		o(&w.cfg)
	}
	if w.cfg.tracker == nil {
		w.cfg.profile = ProfileNone
	}
	w.cfg.buf, _ = w.cfg.tracker.(*Buffered)
	w.cfg.clock = clockOf(w.cfg.tracker)
	w.cfg.origin = &origin{workflow: name, paths: []string{""}}
	assignPaths(w.root, "", map[*base]bool{}, &w.cfg.origin.paths)
	if w.cfg.buf != nil {
		w.cfg.from = w.cfg.buf.register(w.cfg.origin)
	}
	return w
}

// Name returns the workflow's name.
func (w *Workflow[I, O]) Name() string { return w.name }

// Run takes a worker from x, runs the workflow on it and gives it back. An
// error from Acquire (such as a full admission queue) is returned wrapped,
// and nothing runs.
func (w *Workflow[I, O]) Run(ctx context.Context, x Executor, in I) (O, error) {
	if err := x.Acquire(ctx); err != nil {
		var zero O
		return zero, fmt.Errorf("workflow %s: %w", w.name, err)
	}
	defer x.Release()
	return w.RunHolding(ctx, x, in)
}

// RunHolding runs the workflow on the worker the caller already holds; x is
// used only to give that worker back while I/O is in flight.
func (w *Workflow[I, O]) RunHolding(ctx context.Context, x Executor, in I) (O, error) {
	env := newEnv(w.scope, nil)
	w.in.Set(env, in)
	var r *run
	switch w.cfg.profile {
	case ProfileNone:
		r = &run{x: x, cfg: &w.cfg}
	case ProfileHealth:
		// The two health events fit in the run's own allocation: no pool,
		// and a run with no tracking does not carry the room.
		h := &healthRun{run: run{x: x, cfg: &w.cfg, profile: w.cfg.profile, clock: w.cfg.clock, id: w.seq.Add(1)}}
		r = &h.run
		r.recs = h.batch[:0]
	default:
		r = &run{x: x, cfg: &w.cfg, profile: w.cfg.profile, clock: w.cfg.clock, id: w.seq.Add(1)}
		r.pooled = recBatches.Get().(*[maxBatch]rec)
		r.recs = r.pooled[:0]
	}
	err := r.exec(ctx, w.root, env)
	if err != nil {
		var zero O
		return zero, err
	}
	return w.out.Get(env), nil
}

// run is the per-run state: the work queue, in-flight I/O and registered
// compensations. Only the run's own goroutine touches it, except the
// completions channel that I/O goroutines send on.
type run struct {
	x           Executor
	cfg         *config
	profile     Profile       // cfg.profile, one load closer
	clock       *atomic.Int64 // cfg.clock, likewise
	id          uint64
	queue       []item
	head        int
	pending     int
	deferred    func() func() // the newest I/O, not started yet; see startIO
	completions chan func()
	comps       []pendingComp
	result      error
	recs        []rec          // tracking batch; nil when not tracking
	pooled      *[maxBatch]rec // recs' array when it comes from recBatches
	errs        []error        // the errors of the faulted records in recs
}

// healthRun is a run with room for the two events of ProfileHealth.
type healthRun struct {
	run
	batch [2]rec
}

// recBatches recycles the batches of ProfileBasic runs, which are too big
// to carry in every run's allocation.
var recBatches = sync.Pool{New: func() any { return new([maxBatch]rec) }}

// A run hands its batch over once it holds flushAt events, so a long run
// hands its events over steadily; a small workflow (a Sequence of 5 has 14
// events in ProfileBasic) hands them over once, at the end. maxBatch leaves
// room for the events of the step that crosses flushAt.
const (
	flushAt  = 32
	maxBatch = 64
)

type item struct {
	a   Activity
	e   *Env
	ctx context.Context
	k   cont
}

type pendingComp struct {
	act Activity
	env *Env
}

func (r *run) exec(ctx context.Context, root Activity, env *Env) error {
	if r.profile != ProfileNone {
		r.emit(WorkflowStarted, 0)
	}
	r.schedule(root, env, ctx, func(err error) {
		r.result = err
		if err != nil && len(r.comps) > 0 {
			r.compensate(context.WithoutCancel(ctx))
		}
	})
	r.loop(ctx)
	if r.profile != ProfileNone {
		if r.result != nil {
			r.emitFault(WorkflowFaulted, 0, r.result)
		} else {
			r.emit(WorkflowCompleted, 0)
		}
		r.flush()
		if r.pooled != nil {
			recBatches.Put(r.pooled)
			r.pooled, r.recs = nil, nil
		}
	}
	return r.result
}

// compensate runs the registered compensations one at a time, newest first.
// Their errors are joined to the fault that triggered them, after it (Fault
// relies on that order).
func (r *run) compensate(ctx context.Context) {
	n := len(r.comps)
	if n == 0 {
		return
	}
	c := r.comps[n-1]
	r.comps = r.comps[:n-1]
	r.schedule(c.act, c.env, ctx, func(err error) {
		if err != nil {
			r.result = errors.Join(r.result, err)
		}
		r.compensate(ctx)
	})
}

func (r *run) schedule(a Activity, e *Env, ctx context.Context, k cont) {
	r.queue = append(r.queue, item{a: a, e: e, ctx: ctx, k: k})
}

// loop is the scheduler: it drains the work queue on the held worker and,
// when only I/O is left, gives the worker back through Await until an I/O
// completes. It returns when no work and no I/O remain. ctx is the run's:
// if it ends while the run waits to get a worker back, Await lets the run
// finish its bookkeeping at once instead of queueing behind live requests.
func (r *run) loop(ctx context.Context) {
	for {
		for r.head < len(r.queue) {
			it := r.queue[r.head]
			r.queue[r.head] = item{}
			r.head++
			if r.head == len(r.queue) {
				// Reset while empty so a long While reuses the same slots.
				r.queue, r.head = r.queue[:0], 0
			}
			if r.deferred != nil {
				r.launch() // more work to do first: the I/O must not wait for it
			}
			r.step(it)
		}
		if r.pending == 0 {
			return
		}
		if r.recs != nil {
			r.flush() // going idle: do not sit on events while the I/O runs
		}
		var end func()
		if r.deferred != nil && r.pending == 1 {
			// The only thing left is one unstarted I/O: run it right here,
			// inside Await, with the worker released. This is the common
			// case (a Sequence of async calls) and costs no goroutine hand-off.
			io := r.deferred
			r.deferred = nil
			_ = r.x.Await(ctx, func(context.Context) error {
				end = io()
				return nil
			})
		} else {
			if r.deferred != nil {
				r.launch()
			}
			select {
			case end = <-r.completions: // already done: keep the worker
			default:
				// The I/O goroutines watch their own contexts, so this wait
				// ends when one of them does.
				_ = r.x.Await(ctx, func(context.Context) error {
					//syncio:ignore SIO005 -- every sender on r.completions is an I/O goroutine that watches its own request-derived context (launch), so the receive ends when they do; a ctx.Done() case would leave a completion unread and its end() never run
					end = <-r.completions
					return nil
				})
			}
		}
		r.pending--
		end()
	}
}

func (r *run) step(it item) {
	if err := it.ctx.Err(); err != nil {
		// Cancelled before it started (a Parallel sibling failed, or the
		// caller gave up): complete it without running it.
		r.done(it.a, err, it.k)
		return
	}
	if r.profile >= ProfileBasic {
		r.emit(ActivityExecuting, it.a.node().id)
	}
	it.a.execute(r, it.e, it.ctx, it.k)
	if len(r.recs) >= flushAt {
		r.flush()
	}
}

// done completes activity a: it attaches a's path to a new error, tracks the
// close, and continues with k.
func (r *run) done(a Activity, err error, k cont) {
	if err != nil {
		if _, ok := err.(*Error); !ok {
			err = &Error{Path: a.node().path, Err: err}
		}
	}
	if r.profile >= ProfileBasic {
		if err != nil {
			r.emitFault(ActivityFaulted, a.node().id, err)
		} else {
			r.emit(ActivityClosed, a.node().id)
		}
	}
	k(err)
}

// startIO registers an I/O; the func io returns is its completion work
// item, to run on the scheduler. The newest I/O is kept unstarted until the
// scheduler either has other work (then it goes to a goroutine) or has
// nothing else to wait for (then loop runs it inline, inside Await).
func (r *run) startIO(io func() func()) {
	if r.deferred != nil {
		r.launch()
	}
	r.pending++
	r.deferred = io
}

// launch starts the deferred I/O on a goroutine of its own.
func (r *run) launch() {
	if r.completions == nil {
		r.completions = make(chan func(), 4)
	}
	io, ch := r.deferred, r.completions
	r.deferred = nil
	go func() { ch <- io() }()
}

// emit records an event in the run's batch; flush hands the batch over.
// Callers check the profile first, so ProfileNone never gets here. A record
// is 16 bytes with no pointers; the event's workflow, instance, path and
// error are attached when it is turned back into an Event, which is off the
// run's path when the tracker is a Buffered.
//
// emit is small enough to be inlined (a call per event costs more than the
// record), so it does not check for a full batch: step does, after each
// activity, and so a batch can only outgrow flushAt by the events of one
// step (a chain of completions), which append then makes room for.
func (r *run) emit(k Kind, act uint32) {
	r.recs = append(r.recs, rec{at: r.clock.Load(), act: act, kind: k})
}

// emitFault is emit for a faulted event and its error.
func (r *run) emitFault(k Kind, act uint32, err error) {
	r.errs = append(r.errs, err)
	r.emit(k, act)
}

// noClock is the clock of workflows with no Buffered: always 0, so their
// records are stamped when flush hands them over instead.
var noClock atomic.Int64

// clockOf finds the clock that stamps t's events: that of t itself, or of
// the first Buffered in a Multi, or noClock.
func clockOf(t Tracker) *atomic.Int64 {
	switch t := t.(type) {
	case *Buffered:
		return &t.clock
	case Multi:
		for _, m := range t {
			if c := clockOf(m); c != &noClock {
				return c
			}
		}
	}
	return &noClock
}

// eventBatches recycles the Event slices of the hand-off to trackers other
// than a Buffered.
var eventBatches = sync.Pool{New: func() any { s := make([]Event, 0, maxBatch); return &s }}

func (r *run) flush() {
	recs := r.recs
	if len(recs) == 0 {
		return
	}
	if b := r.cfg.buf; b != nil {
		b.put(r.cfg.from, r.id, recs, r.errs)
	} else {
		// No coarse clock: stamp the records here, with one clock read per
		// hand-off rather than one per event.
		var now int64
		for i := range recs {
			if recs[i].at == 0 {
				if now == 0 {
					now = time.Now().UnixNano()
				}
				recs[i].at = now
			}
		}
		evs := eventBatches.Get().(*[]Event)
		*evs = r.cfg.origin.expand((*evs)[:0], r.id, recs, r.errs)
		send(r.cfg.tracker, *evs)
		clear(*evs)
		eventBatches.Put(evs)
	}
	r.recs = recs[:0]
	clear(r.errs)
	r.errs = r.errs[:0]
}
