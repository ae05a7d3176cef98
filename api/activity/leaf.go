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
	o, err := a.fn(ctx, in)
	if err == nil && a.out != nil {
		a.out.Set(e, o)
	}
	r.done(a, err, k)
}

// AsyncOp is the body of an asynchronous activity, in three parts:
//
//   - Begin (optional) runs on the worker: validate or prepare the input.
//   - IO (required) runs with NO worker held, on its own goroutine. It must
//     honour ctx, because cancellation (a failed Parallel sibling, an ended
//     request) reaches it only through ctx.
//   - End (required) runs on the worker again, after IO, to turn IO's result
//     into the activity's output.
//
// IO must not touch the Env: it gets its input by value and returns its
// result by value, which is what keeps a run single-threaded.
type AsyncOp[I, R, O any] struct {
	Begin func(ctx context.Context, in I) (I, error)
	IO    func(ctx context.Context, in I) (R, error)
	End   func(ctx context.Context, r R) (O, error)
}

type async[I, R, O any] struct {
	base
	in  Arg[I]
	out Out[O]
	op  AsyncOp[I, R, O]
}

// Async is an activity whose I/O runs without holding a worker; see AsyncOp.
func Async[I, R, O any](name string, in Arg[I], out Out[O], op AsyncOp[I, R, O]) Activity {
	if op.IO == nil || op.End == nil {
		panic("activity: Async " + name + " needs IO and End")
	}
	return &async[I, R, O]{base: base{name: name}, in: in, out: out, op: op}
}

// AsyncIO is an Async activity with no Begin and whose output is IO's result.
func AsyncIO[I, R any](name string, in Arg[I], out Out[R], io func(ctx context.Context, in I) (R, error)) Activity {
	return Async(name, in, out, AsyncOp[I, R, R]{
		IO:  io,
		End: func(_ context.Context, r R) (R, error) { return r, nil },
	})
}

func (a *async[I, R, O]) children() []Activity { return nil }

func (a *async[I, R, O]) execute(r *run, e *Env, ctx context.Context, k cont) {
	var in I
	if a.in != nil {
		in = a.in.Get(e)
	}
	if a.op.Begin != nil {
		var err error
		if in, err = a.op.Begin(ctx, in); err != nil {
			r.done(a, err, k)
			return
		}
	}
	r.startIO(func() func() {
		res, err := a.runIO(ctx, in)
		// The returned func is the End work item; it runs on the scheduler.
		return func() {
			if err != nil {
				r.done(a, err, k)
				return
			}
			o, err := a.op.End(ctx, res)
			if err == nil && a.out != nil {
				a.out.Set(e, o)
			}
			r.done(a, err, k)
		}
	})
}

// runIO turns a panic in IO into an error: it runs on a goroutine of its
// own, where nothing else could recover it and it would kill the process.
func (a *async[I, R, O]) runIO(ctx context.Context, in I) (res R, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in I/O: %v", p)
		}
	}()
	return a.op.IO(ctx, in)
}
