package activity

import (
	"context"
	"errors"
)

// Host runs a workflow's tree on an engine other than this package's
// scheduler, such as a durable one (api/activity/temporal). The tree is the
// same template Run uses; only Async activities leave the host's workflow
// code, as calls that the engine may retry, persist and run on another
// machine. Code activities, Expr arguments and every composite run inline in
// the host's workflow code, so on a replaying engine they must be
// deterministic, as Validate and Confirm of the order workflow are.
//
// A Host must run workflow code one branch at a time (Temporal's workflow
// coroutines do): the run's Env is not locked.
type Host interface {
	// Call runs the Async activity at path (see Workflow.Leaves) with input
	// in and stores its output through out, a pointer to the activity's
	// output type.
	Call(path string, in, out any) error
	// Parallel runs the branches at once, each with a Host of its own. The
	// first failure cancels the other branches, and Parallel returns it once
	// every branch has ended.
	Parallel(branches []func(Host) error) error
	// Detached returns a Host whose calls survive the cancellation of this
	// one, for compensations, which run after a fault.
	Detached() Host
}

// Leaf is an Async activity of a workflow, as a host's activity worker
// registers it: Func is a func(context.Context, I) (O, error) that runs the
// activity's Begin, wait and End in one go, on whatever machine the host
// picks.
type Leaf struct {
	Path string
	Func any
}

// Around wraps each call of a Leaf's Func, for what a host does while an
// activity runs, such as heartbeating. It must call call once and return
// its error.
type Around func(ctx context.Context, call func(context.Context) error) error

// Leaves returns the workflow's Async activities, in tree order, each run
// inside around (nil: called directly).
func (w *Workflow[I, O]) Leaves(around Around) []Leaf {
	if around == nil {
		around = func(ctx context.Context, call func(context.Context) error) error { return call(ctx) }
	}
	var out []Leaf
	var walk func(a Activity)
	walk = func(a Activity) {
		if l, ok := a.(interface{ leaf(Around) Leaf }); ok {
			out = append(out, l.leaf(around))
		}
		for _, c := range a.children() {
			walk(c)
		}
	}
	walk(w.root)
	return out
}

// RunOn runs the workflow on h. Faults carry activity paths as in Run, and
// compensations run, newest first, on h.Detached.
func (w *Workflow[I, O]) RunOn(h Host, in I) (O, error) {
	env := newEnv(w.scope, nil)
	w.in.Set(env, in)
	var comps []pendingComp
	if err := hostRun(w.root, h, env, &comps); err != nil {
		d := h.Detached()
		for i := len(comps) - 1; i >= 0; i-- {
			// A compensation's own compensations are not kept: as in Run,
			// undoing is not itself undone.
			var nested []pendingComp
			if cerr := hostRun(comps[i].act, d, comps[i].env, &nested); cerr != nil {
				err = errors.Join(err, cerr)
			}
		}
		var zero O
		return zero, err
	}
	return w.out.Get(env), nil
}

// hosted is implemented by every activity type of this package.
type hosted interface {
	host(h Host, e *Env, comps *[]pendingComp) error
}

// hostRun runs a on h and gives a new error a's path, as run.done does.
func hostRun(a Activity, h Host, e *Env, comps *[]pendingComp) error {
	err := a.(hosted).host(h, e, comps)
	if err != nil {
		var ae *Error
		if !errors.As(err, &ae) {
			err = &Error{Path: a.node().path, Err: err}
		}
	}
	return err
}

func (a *code[I, O]) host(_ Host, e *Env, _ *[]pendingComp) error {
	var in I
	if a.in != nil {
		in = a.in.Get(e)
	}
	// Workflow code has no request context: cancellation reaches it
	// through the host, between activities.
	o, err := callSafely(context.Background(), in, a.fn)
	if err == nil && a.out != nil {
		a.out.Set(e, o)
	}
	return err
}

func (a *async[I, R, O]) leaf(around Around) Leaf {
	return Leaf{Path: a.path, Func: func(ctx context.Context, in I) (O, error) {
		var o O
		err := around(ctx, func(ctx context.Context) error {
			wait, err := callSafely(ctx, in, a.op.Begin)
			if err != nil {
				return err
			}
			r, err := waitSafely(ctx, wait)
			if err != nil {
				return err
			}
			o, err = callSafely(ctx, r, a.op.End)
			return err
		})
		if err != nil {
			var zero O
			return zero, err
		}
		return o, nil
	}}
}

func (a *async[I, R, O]) host(h Host, e *Env, _ *[]pendingComp) error {
	var in I
	if a.in != nil {
		in = a.in.Get(e)
	}
	var o O
	if err := h.Call(a.path, in, &o); err != nil {
		return err
	}
	if a.out != nil {
		a.out.Set(e, o)
	}
	return nil
}

func (s *sequence) host(h Host, e *Env, comps *[]pendingComp) error {
	for _, c := range s.kids {
		if err := hostRun(c, h, e, comps); err != nil {
			return err
		}
	}
	return nil
}

func (p *parallel) host(h Host, e *Env, comps *[]pendingComp) error {
	if len(p.kids) == 0 {
		return nil
	}
	branches := make([]func(Host) error, len(p.kids))
	for i, c := range p.kids {
		branches[i] = func(bh Host) error { return hostRun(c, bh, e, comps) }
	}
	return h.Parallel(branches)
}

func (f *forEach[T]) host(h Host, e *Env, comps *[]pendingComp) error {
	items := f.items.Get(e)
	if len(items) == 0 {
		return nil
	}
	branches := make([]func(Host) error, len(items))
	for i, it := range items {
		ce := newEnv(f.scope, e)
		f.item.Set(ce, it)
		branches[i] = func(bh Host) error { return hostRun(f.body, bh, ce, comps) }
	}
	return h.Parallel(branches)
}

func (w *while) host(h Host, e *Env, comps *[]pendingComp) error {
	for w.cond.Get(e) {
		if err := hostRun(w.body, h, e, comps); err != nil {
			return err
		}
	}
	return nil
}

func (i *ifElse) host(h Host, e *Env, comps *[]pendingComp) error {
	branch := i.elze
	if i.cond.Get(e) {
		branch = i.then
	}
	if branch == nil {
		return nil
	}
	return hostRun(branch, h, e, comps)
}

func (c *compensable) host(h Host, e *Env, comps *[]pendingComp) error {
	if err := hostRun(c.body, h, e, comps); err != nil {
		return err
	}
	*comps = append(*comps, pendingComp{act: c.comp, env: e})
	return nil
}

// Compile-time check that every activity type can run on a Host.
var (
	_ hosted = (*code[int, int])(nil)
	_ hosted = (*async[int, int, int])(nil)
	_ hosted = (*sequence)(nil)
	_ hosted = (*parallel)(nil)
	_ hosted = (*forEach[int])(nil)
	_ hosted = (*while)(nil)
	_ hosted = (*ifElse)(nil)
	_ hosted = (*compensable)(nil)
)
