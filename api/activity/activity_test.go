package activity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// countingExec is a fake Executor that counts held workers, so tests can
// prove that a run gives its worker back while its I/O is in flight.
type countingExec struct {
	mu                        sync.Mutex
	held, maxHeld             int
	acquires, releases, waits int
	awaiting                  chan struct{} // closed on the first Await
	once                      sync.Once
}

func newCountingExec() *countingExec { return &countingExec{awaiting: make(chan struct{})} }

func (c *countingExec) Acquire(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held++
	c.acquires++
	c.maxHeld = max(c.maxHeld, c.held)
	return nil
}

func (c *countingExec) Release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held--
	c.releases++
}

func (c *countingExec) Await(ctx context.Context, io func(context.Context) error) error {
	c.mu.Lock()
	c.held--
	c.waits++
	c.mu.Unlock()
	c.once.Do(func() { close(c.awaiting) })
	defer func() {
		c.mu.Lock()
		c.held++
		c.maxHeld = max(c.maxHeld, c.held)
		c.mu.Unlock()
	}()
	return io(ctx)
}

func (c *countingExec) Held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.held
}

var errBoom = errors.New("boom")

func TestSequenceDataFlow(t *testing.T) {
	wf := New("Calc", func(s *Scope, in Var[int], out Var[string]) Activity {
		doubled := Declare[int](s, "doubled")
		return Sequence("Calc",
			Code("Double", in, doubled, func(_ context.Context, n int) (int, error) { return 2 * n, nil }),
			Code("Format", doubled, out, func(_ context.Context, n int) (string, error) { return fmt.Sprint("n=", n), nil }),
		)
	})
	for _, n := range []int{1, 21} {
		got, err := wf.Run(context.Background(), Unlimited{}, n)
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint("n=", 2*n); got != want {
			t.Errorf("Run(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestAsyncReleasesWorker proves the WF4 property: while two parallel async
// activities have their I/O in flight, the run holds no worker, and the two
// I/Os overlap (each waits until the other has started). Neither I/O can
// finish until the scheduler has entered Await, so an implementation that
// kept its worker during I/O would fail here (after the hang guard).
func TestAsyncReleasesWorker(t *testing.T) {
	x := newCountingExec()
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	var heldDuringIO [2]int
	branch := func(i int) Activity {
		return AsyncIO("IO"+fmt.Sprint(i), Const(i), Discard[int](), func(ctx context.Context, i int) (int, error) {
			close(started[i])
			for _, ch := range []<-chan struct{}{started[1-i], x.awaiting} {
				select {
				case <-ch:
				case <-time.After(10 * time.Second): // hang guard only
					return 0, errors.New("I/O never overlapped or worker never released")
				}
			}
			heldDuringIO[i] = x.Held()
			return i, nil
		})
	}
	var beginHeld, endHeld int
	wf := New("Overlap", func(s *Scope, in Var[struct{}], out Var[int]) Activity {
		return Sequence("Overlap",
			Do("Before", func(context.Context) error { beginHeld = x.Held(); return nil }),
			Parallel("Both", branch(0), branch(1)),
			Do("After", func(context.Context) error { endHeld = x.Held(); return nil }),
		)
	})
	if _, err := wf.Run(context.Background(), x, struct{}{}); err != nil {
		t.Fatal(err)
	}
	if heldDuringIO != [2]int{0, 0} {
		t.Errorf("workers held during I/O = %v, want [0 0]", heldDuringIO)
	}
	if beginHeld != 1 || endHeld != 1 {
		t.Errorf("workers held by code activities = %d, %d, want 1, 1", beginHeld, endHeld)
	}
	if x.waits < 1 || x.acquires != 1 || x.releases != 1 || x.Held() != 0 || x.maxHeld != 1 {
		t.Errorf("executor: waits=%d acquires=%d releases=%d held=%d max=%d", x.waits, x.acquires, x.releases, x.Held(), x.maxHeld)
	}
}

// TestLoneAsyncRunsInsideAwait covers the fast path: a lone I/O runs on the
// run's own goroutine inside Await, still with no worker held.
func TestLoneAsyncRunsInsideAwait(t *testing.T) {
	x := newCountingExec()
	held := -1
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Sequence("W",
			AsyncIO("IO", in, out, func(_ context.Context, n int) (int, error) { held = x.Held(); return n + 1, nil }),
			AsyncIO("IO2", out, out, func(_ context.Context, n int) (int, error) { return n * 3, nil }),
		)
	})
	got, err := wf.Run(context.Background(), x, 1)
	if err != nil || got != 6 {
		t.Fatalf("got %d, %v, want 6", got, err)
	}
	if held != 0 || x.waits != 2 || x.Held() != 0 {
		t.Errorf("held during I/O = %d, waits = %d, held after = %d; want 0, 2, 0", held, x.waits, x.Held())
	}
}

func TestParallelFirstFailureCancelsOthers(t *testing.T) {
	slowStarted := make(chan struct{})
	var slowErr error
	wf := New("Order", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Sequence("Order",
			Parallel("Parallel",
				AsyncIO("GetUserProfile", Const(0), Discard[int](), func(ctx context.Context, _ int) (int, error) {
					close(slowStarted)
					<-ctx.Done() // only cancellation ends this I/O
					slowErr = ctx.Err()
					return 0, slowErr
				}),
				AsyncIO("UploadReceipt", Const(0), Discard[int](), func(ctx context.Context, _ int) (int, error) {
					<-slowStarted
					return 0, errBoom
				}),
			),
			Do("Confirm", func(context.Context) error { t.Error("Confirm ran after a failure"); return nil }),
		)
	})
	_, err := wf.Run(context.Background(), newCountingExec(), 0)
	if !errors.Is(err, errBoom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if want := "Order/Parallel/UploadReceipt: boom"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	var ae *Error
	if !errors.As(err, &ae) || ae.Path != "Order/Parallel/UploadReceipt" {
		t.Errorf("errors.As path = %+v", ae)
	}
	if !errors.Is(slowErr, context.Canceled) {
		t.Errorf("sibling I/O ended with %v, want context.Canceled", slowErr)
	}
}

func TestWhileAndIf(t *testing.T) {
	wf := New("Count", func(s *Scope, in Var[int], out Var[[]string]) Activity {
		i := Declare[int](s, "i")
		return While("Loop", Expr[bool](func(e *Env) bool { return i.Get(e) < in.Get(e) }),
			Sequence("Body",
				If("Even", Expr[bool](func(e *Env) bool { return i.Get(e)%2 == 0 }),
					Code("Append", Expr[[]string](func(e *Env) []string { return append(out.Get(e), fmt.Sprint(i.Get(e))) }), out,
						func(_ context.Context, v []string) ([]string, error) { return v, nil }),
					nil),
				Code("Inc", i, i, func(_ context.Context, n int) (int, error) { return n + 1, nil }),
			))
	})
	got, err := wf.Run(context.Background(), Unlimited{}, 7)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "0,2,4,6" {
		t.Errorf("got %v, want [0 2 4 6]", got)
	}
	got, err = wf.Run(context.Background(), Unlimited{}, 0)
	if err != nil || len(got) != 0 {
		t.Errorf("zero iterations: got %v, %v", got, err)
	}
}

func TestParallelForEachPerItemScope(t *testing.T) {
	x := newCountingExec()
	wf := New("Squares", func(s *Scope, in Var[[]int], out Var[int]) Activity {
		return ParallelForEach("Each", in, func(bs *Scope, item Var[int]) Activity {
			sq := Declare[int](bs, "sq")
			return Sequence("Item",
				AsyncIO("Square", item, sq, func(_ context.Context, n int) (int, error) { return n * n, nil }),
				// Reads the branch's own sq and the outer out: scopes chain.
				Code("Add", Expr[int](func(e *Env) int { return out.Get(e) + sq.Get(e) }), out,
					func(_ context.Context, v int) (int, error) { return v, nil }),
			)
		})
	})
	got, err := wf.Run(context.Background(), x, []int{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got != 30 {
		t.Errorf("sum of squares = %d, want 30", got)
	}
	if x.Held() != 0 || x.maxHeld != 1 {
		t.Errorf("held after run = %d, max held = %d; want 0 and 1 (one worker per run)", x.Held(), x.maxHeld)
	}
}

func TestCompensationRunsInReverse(t *testing.T) {
	var log []string
	step := func(name string) Activity {
		return Do(name, func(context.Context) error { log = append(log, name); return nil })
	}
	build := func(fail bool) *Workflow[int, int] {
		return New("Trip", func(s *Scope, in Var[int], out Var[int]) Activity {
			return Sequence("Trip",
				Compensable("Flight", step("book flight"), step("cancel flight")),
				Compensable("Hotel", step("book hotel"), step("cancel hotel")),
				If("Pay", Const(fail), Do("Charge", func(context.Context) error { return errBoom }), step("charge")),
			)
		})
	}
	_, err := build(true).Run(context.Background(), Unlimited{}, 0)
	if !errors.Is(err, errBoom) || !strings.HasPrefix(err.Error(), "Trip/Pay/Charge: ") {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(log, "; "); got != "book flight; book hotel; cancel hotel; cancel flight" {
		t.Errorf("log = %s", got)
	}
	log = nil
	if _, err := build(false).Run(context.Background(), Unlimited{}, 0); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, "; "); got != "book flight; book hotel; charge" {
		t.Errorf("success ran compensations: %s", got)
	}
}

func TestCompensationErrorIsJoined(t *testing.T) {
	errUndo := errors.New("undo failed")
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Sequence("W",
			Compensable("C", Do("Do", func(context.Context) error { return nil }), Do("Undo", func(context.Context) error { return errUndo })),
			Compensable("D", Do("Do", func(context.Context) error { return nil }), Do("Undo", func(context.Context) error { return errUndo })),
			Do("Fail", func(context.Context) error { return errBoom }),
		)
	})
	_, err := wf.Run(context.Background(), Unlimited{}, 0)
	if !errors.Is(err, errBoom) || !errors.Is(err, errUndo) || !strings.Contains(err.Error(), "W/C/Undo: undo failed") ||
		!strings.Contains(err.Error(), "W/D/Undo: undo failed") {
		t.Errorf("err = %v, want boom, W/C/Undo and W/D/Undo", err)
	}
	// Fault is the step that failed, without what undoing it did.
	var ae *Error
	if f := Fault(err); !errors.As(f, &ae) || ae.Path != "W/Fail" || errors.Is(f, errUndo) {
		t.Errorf("Fault(err) = %v, want W/Fail's error alone", f)
	}
	if f := Fault(errBoom); f != errBoom {
		t.Errorf("Fault of a plain error = %v, want it unchanged", f)
	}
}

func TestCancelledContextRunsNothing(t *testing.T) {
	ran := false
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Sequence("W", Do("A", func(context.Context) error { ran = true; return nil }))
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := wf.RunHolding(ctx, Unlimited{}, 0)
	if !errors.Is(err, context.Canceled) || ran {
		t.Errorf("err = %v ran = %v, want context.Canceled and nothing run", err, ran)
	}
}

func TestCancelDuringIO(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := newCountingExec()
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Sequence("W",
			AsyncIO("Wait", Const(0), out, func(ctx context.Context, _ int) (int, error) {
				cancel()
				<-ctx.Done()
				return 0, ctx.Err()
			}),
			Do("Next", func(context.Context) error { t.Error("ran after cancel"); return nil }))
	})
	_, err := wf.Run(ctx, x, 0)
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "W/Wait: ") {
		t.Errorf("err = %v", err)
	}
	if x.Held() != 0 || x.releases != 1 {
		t.Errorf("held=%d releases=%d", x.Held(), x.releases)
	}
}

func TestAsyncBeginEndAndPanic(t *testing.T) {
	wf := New("W", func(s *Scope, in Var[string], out Var[int]) Activity {
		return Async("Len", in, out, AsyncOp[string, int, int]{
			Begin: func(_ context.Context, s string) (func(context.Context) (int, error), error) {
				if s == "" {
					return nil, errors.New("empty input")
				}
				s += "!"
				return func(context.Context) (int, error) {
					if s == "panic!" {
						panic("kaboom")
					}
					return len(s), nil
				}, nil
			},
			End: func(_ context.Context, n int) (int, error) { return n * 10, nil },
		})
	})
	if got, err := wf.Run(context.Background(), Unlimited{}, "abc"); err != nil || got != 40 {
		t.Errorf("Run(abc) = %d, %v, want 40", got, err)
	}
	if _, err := wf.Run(context.Background(), Unlimited{}, ""); err == nil || err.Error() != "Len: empty input" {
		t.Errorf("Begin error = %v", err)
	}
	if _, err := wf.Run(context.Background(), Unlimited{}, "panic"); err == nil || !strings.Contains(err.Error(), "Len: panic in I/O: kaboom") {
		t.Errorf("panic error = %v", err)
	}
}

func TestConcurrentRunsShareTemplate(t *testing.T) {
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		tmp := Declare[int](s, "tmp")
		return Sequence("W",
			AsyncIO("Inc", in, tmp, func(_ context.Context, n int) (int, error) { return n + 1, nil }),
			Code("Double", tmp, out, func(_ context.Context, n int) (int, error) { return 2 * n, nil }),
		)
	})
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			got, err := wf.Run(context.Background(), Unlimited{}, i)
			if err == nil && got != 2*(i+1) {
				err = fmt.Errorf("run %d got %d", i, got)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func TestReusedActivityPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for an activity used twice")
		}
	}()
	a := Do("A", func(context.Context) error { return nil })
	New("W", func(s *Scope, in Var[int], out Var[int]) Activity { return Sequence("W", a, a) })
}

type failingExec struct{ Unlimited }

var errFull = errors.New("queue full")

func (failingExec) Acquire(context.Context) error { return errFull }

func TestAcquireErrorRunsNothing(t *testing.T) {
	ran := false
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Do("A", func(context.Context) error { ran = true; return nil })
	})
	if _, err := wf.Run(context.Background(), failingExec{}, 0); !errors.Is(err, errFull) || ran {
		t.Errorf("err = %v ran = %v", err, ran)
	}
}

func TestCodePanicBecomesErrorAndWaitsForIO(t *testing.T) {
	ioDone := false
	wf := New("W", func(s *Scope, in Var[int], out Var[int]) Activity {
		return Parallel("P",
			AsyncIO("IO", in, out, func(ctx context.Context, n int) (int, error) {
				<-ctx.Done() // ends only when the panic's error cancels it
				ioDone = true
				return 0, ctx.Err()
			}),
			Do("Bad", func(context.Context) error { panic("bug") }),
		)
	})
	_, err := wf.Run(context.Background(), newCountingExec(), 0)
	if err == nil || err.Error() != "P/Bad: panic: bug" {
		t.Errorf("err = %v, want P/Bad: panic: bug", err)
	}
	if !ioDone {
		t.Error("Run returned before the in-flight I/O ended")
	}
}
