package activity

import (
	"context"
	"fmt"
)

type code[I, O any] struct {
	base
	in  Arg[I]
	out Out[O]
	fn  func(context.Context, I) (O, error)
}

// Code is an activity that runs fn on the run's worker: it reads in, calls
// fn and writes the result to out. in and out may be nil. A blocking call in
// fn holds the worker for its whole duration; use Async for I/O.
func Code[I, O any](name string, in Arg[I], out Out[O], fn func(ctx context.Context, in I) (O, error)) Activity {
	return &code[I, O]{base: base{name: name}, in: in, out: out, fn: fn}
}

// Do is a Code activity with no data: fn only sees the context.
func Do(name string, fn func(ctx context.Context) error) Activity {
	return Code[struct{}, struct{}](name, nil, nil, func(ctx context.Context, _ struct{}) (struct{}, error) {
		return struct{}{}, fn(ctx)
	})
}

func (a *code[I, O]) children() []Activity { return nil }

func (a *code[I, O]) execute(r *run, e *Env, ctx context.Context, k cont) {
	var in I
	if a.in != nil {
		in = a.in.Get(e)
	}
	o, err := callSafely(ctx, in, a.fn)
	if err == nil && a.out != nil {
		a.out.Set(e, o)
	}
	r.done(a, err, k)
}

// callSafely turns a panic in an activity's func into the activity's error.
// Letting it unwind would abandon the run with I/O still in flight, whose
// goroutines would then wait forever to report back.
func callSafely[I, O any](ctx context.Context, in I, fn func(context.Context, I) (O, error)) (o O, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return fn(ctx, in)
}

// AsyncOp is the body of an asynchronous activity, in three parts, as in
// WF4's BeginExecute/EndExecute:
//
//   - Begin runs on the worker. It starts the operation (or just captures
//     its input) and returns wait, the part that waits for the result.
//   - wait runs with NO worker held, on a goroutine of its own. It must
//     honour ctx, because cancellation (a failed Parallel sibling, an ended
//     request) reaches it only through ctx.
//   - End runs on the worker again, after wait, to turn the result into the
//     activity's output.
//
// wait must not touch the Env: it gets what it needs from Begin and returns
// its result by value, which is what keeps a run single-threaded.
type AsyncOp[I, R, O any] struct {
	Begin func(ctx context.Context, in I) (wait func(context.Context) (R, error), err error)
	End   func(ctx context.Context, r R) (O, error)
}

type async[I, R, O any] struct {
	base
	in  Arg[I]
	out Out[O]
	op  AsyncOp[I, R, O]
}

// Async is an activity whose waiting runs without holding a worker; see
// AsyncOp.
func Async[I, R, O any](name string, in Arg[I], out Out[O], op AsyncOp[I, R, O]) Activity {
	if op.Begin == nil || op.End == nil {
		panic("activity: Async " + name + " needs Begin and End")
	}
	return &async[I, R, O]{base: base{name: name}, in: in, out: out, op: op}
}

// AsyncIO is the common case of Async: io is the whole operation, run with
// no worker held, and its result is the activity's output.
func AsyncIO[I, R any](name string, in Arg[I], out Out[R], io func(ctx context.Context, in I) (R, error)) Activity {
	return Async(name, in, out, AsyncOp[I, R, R]{
		Begin: func(_ context.Context, in I) (func(context.Context) (R, error), error) {
			return func(ctx context.Context) (R, error) { return io(ctx, in) }, nil
		},
		End: func(_ context.Context, r R) (R, error) { return r, nil },
	})
}

func (a *async[I, R, O]) children() []Activity { return nil }

func (a *async[I, R, O]) execute(r *run, e *Env, ctx context.Context, k cont) {
	var in I
	if a.in != nil {
		in = a.in.Get(e)
	}
	wait, err := callSafely(ctx, in, a.op.Begin)
	if err != nil {
		r.done(a, err, k)
		return
	}
	r.startIO(func() func() {
		res, err := waitSafely(ctx, wait)
		// The returned func is the End work item; it runs on the scheduler.
		return func() {
			if err != nil {
				r.done(a, err, k)
				return
			}
			o, err := callSafely(ctx, res, a.op.End)
			if err == nil && a.out != nil {
				a.out.Set(e, o)
			}
			r.done(a, err, k)
		}
	})
}

// waitSafely turns a panic in wait into an error: wait runs on a goroutine
// of its own, where nothing else could recover it and it would kill the
// process.
func waitSafely[R any](ctx context.Context, wait func(context.Context) (R, error)) (res R, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in I/O: %v", p)
		}
	}()
	return wait(ctx)
}
