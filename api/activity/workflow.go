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
	assignPaths(w.root, "", map[*base]bool{})
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
	r := &run{x: x, cfg: &w.cfg, workflow: w.name}
	if w.cfg.profile != ProfileNone {
		r.id = w.seq.Add(1)
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
	workflow    string
	id          uint64
	queue       []item
	head        int
	pending     int
	deferred    func() func() // the newest I/O, not started yet; see startIO
	completions chan func()
	comps       []pendingComp
	result      error
	events      *[]Event // tracking batch, from eventBatches; nil when not tracking
}

// eventBatches recycles the per-run tracking batches.
var eventBatches = sync.Pool{New: func() any { s := make([]Event, 0, maxBatch); return &s }}

// maxBatch bounds a batch so a long run still hands its events over steadily.
const maxBatch = 64

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
	r.emit(WorkflowStarted, "", nil)
	r.schedule(root, env, ctx, func(err error) {
		r.result = err
		if err != nil && len(r.comps) > 0 {
			r.compensate(context.WithoutCancel(ctx))
		}
	})
	r.loop()
	if r.result != nil {
		r.emit(WorkflowFaulted, "", r.result)
	} else {
		r.emit(WorkflowCompleted, "", nil)
	}
	if r.events != nil {
		r.flush()
		eventBatches.Put(r.events)
		r.events = nil
	}
	return r.result
}

// compensate runs the registered compensations one at a time, newest first.
// Their errors are joined to the fault that triggered them.
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
// completes. It returns when no work and no I/O remain.
func (r *run) loop() {
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
		if r.events != nil {
			r.flush() // going idle: do not sit on events while the I/O runs
		}
		var end func()
		if r.deferred != nil && r.pending == 1 {
			// The only thing left is one unstarted I/O: run it right here,
			// inside Await, with the worker released. This is the common
			// case (a Sequence of async calls) and costs no goroutine hand-off.
			io := r.deferred
			r.deferred = nil
			_ = r.x.Await(context.Background(), func(context.Context) error {
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
				// ends when one of them does; Await's ctx is not needed.
				_ = r.x.Await(context.Background(), func(context.Context) error {
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
	if r.cfg.profile >= ProfileBasic {
		r.emit(ActivityExecuting, it.a.node().path, nil)
	}
	it.a.execute(r, it.e, it.ctx, it.k)
}

// done completes activity a: it attaches a's path to a new error, tracks the
// close, and continues with k.
func (r *run) done(a Activity, err error, k cont) {
	if err != nil {
		if _, ok := err.(*Error); !ok {
			err = &Error{Path: a.node().path, Err: err}
		}
	}
	if r.cfg.profile >= ProfileBasic {
		if err != nil {
			r.emit(ActivityFaulted, a.node().path, err)
		} else {
			r.emit(ActivityClosed, a.node().path, nil)
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
func (r *run) emit(k Kind, path string, err error) {
	if r.cfg.profile == ProfileNone {
		return
	}
	if r.events == nil {
		r.events = eventBatches.Get().(*[]Event)
	}
	*r.events = append(*r.events, Event{Kind: k, Workflow: r.workflow, Instance: r.id, Activity: path, Err: err, Time: time.Now()})
	if len(*r.events) >= maxBatch {
		r.flush()
	}
}

func (r *run) flush() {
	evs := *r.events
	if len(evs) == 0 {
		return
	}
	if bt, ok := r.cfg.tracker.(BatchTracker); ok {
		bt.TrackBatch(evs)
	} else {
		for i := range evs {
			r.cfg.tracker.Track(evs[i])
		}
	}
	clear(evs)
	*r.events = evs[:0]
}
