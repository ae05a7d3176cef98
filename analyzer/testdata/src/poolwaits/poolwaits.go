// Package poolwaits joins worker pools' tasks on a request path (issue
// 36): a pool's wait is judged like errgroup's Wait, by the tasks given to
// the pool in the same function, flagged naming the first operation that
// does not stop with the request's context and silent when every task's
// I/O takes it; a call that runs one task and waits for it is a wait the
// request cannot cancel whatever the task does.
package poolwaits

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
	"time"

	"github.com/alitto/pond"
	"github.com/gammazero/workerpool"
	"github.com/panjf2000/ants/v2"
	"github.com/sourcegraph/conc"
	"github.com/sourcegraph/conc/pool"
	"golang.org/x/sync/errgroup"
)

var shared = pond.New(8, 64)

var db *sql.DB

// PondStop stops a pool of its own once its task is done.
func PondStop(w http.ResponseWriter, r *http.Request) {
	p := pond.New(4, 16)
	p.Submit(func() {
		_, _ = http.Get("http://upstream/a")
	})
	p.StopAndWait() // want `^github.com/alitto/pond.\(\*WorkerPool\).StopAndWait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// PondTryFor waits for its task up to a deadline, not the request's.
func PondTryFor(w http.ResponseWriter, r *http.Request) {
	p := pond.New(4, 0)
	if !p.TrySubmit(func() { time.Sleep(time.Second) }) {
		return
	}
	p.StopAndWaitFor(2 * time.Second) // want `^github.com/alitto/pond.\(\*WorkerPool\).StopAndWaitFor waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// PondBefore gives its task a deadline to start by.
func PondBefore(w http.ResponseWriter, r *http.Request) {
	p := pond.New(4, 16)
	p.SubmitBefore(func() { time.Sleep(time.Second) }, time.Second)
	p.StopAndWait() // want `^github.com/alitto/pond.\(\*WorkerPool\).StopAndWait waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// PondGroup joins a group of tasks on the shared pool.
func PondGroup(w http.ResponseWriter, r *http.Request) {
	g := shared.Group()
	for _, u := range []string{"http://upstream/a", "http://upstream/b"} {
		g.Submit(func() {
			_, _ = http.Get(u)
		})
	}
	g.Wait() // want `^github.com/alitto/pond.\(\*TaskGroup\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// PondGroupCtx's tasks take the request's context: the join returns soon
// after the request ends.
func PondGroupCtx(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	g := shared.Group()
	g.Submit(func() { _, _ = db.ExecContext(ctx, "UPDATE t SET n = n + 1") })
	g.Wait()
}

// PondSubmitAndWait waits for a free worker, then for its task: neither
// wait ends with the request, even though the task takes its context.
func PondSubmitAndWait(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	shared.SubmitAndWait(func() { _, _ = db.ExecContext(ctx, "UPDATE t SET n = n + 1") }) // want `^github.com/alitto/pond.\(\*WorkerPool\).SubmitAndWait waits with no way to cancel it; submit to a group from pool.GroupContext`
}

// PondDetached submits and never waits, as ErrgroupDetached does: the
// task runs after the handler returns, on no request path.
func PondDetached(w http.ResponseWriter, r *http.Request) {
	shared.Submit(func() {
		_, _ = http.Get("http://upstream/a")
	})
}

// ErrgroupDetached is errgroup's Go with no Wait, for comparison.
func ErrgroupDetached(w http.ResponseWriter, r *http.Request) {
	var g errgroup.Group
	g.Go(func() error {
		_, err := http.Get("http://upstream/a")
		return err
	})
}

// ConcWaitGroup is conc's WaitGroup over an uncancellable fetch.
func ConcWaitGroup(w http.ResponseWriter, r *http.Request) {
	wg := conc.NewWaitGroup()
	wg.Go(func() {
		_, _ = http.Get("http://upstream/a")
	})
	wg.Wait() // want `^github.com/sourcegraph/conc.\(\*WaitGroup\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// ConcRecover waits the same way and keeps a panic.
func ConcRecover(w http.ResponseWriter, r *http.Request) {
	var wg conc.WaitGroup
	wg.Go(func() { time.Sleep(time.Second) })
	_ = wg.WaitAndRecover() // want `^github.com/sourcegraph/conc.\(\*WaitGroup\).WaitAndRecover waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// ConcPool is conc's bounded pool.
func ConcPool(w http.ResponseWriter, r *http.Request) {
	p := pool.New().WithMaxGoroutines(4)
	p.Go(func() {
		_, _ = http.Get("http://upstream/a")
	})
	p.Wait() // want `^github.com/sourcegraph/conc/pool.\(\*Pool\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// ConcErrorPool's tasks return errors.
func ConcErrorPool(w http.ResponseWriter, r *http.Request) {
	p := pool.New().WithErrors()
	p.Go(func() error {
		_, err := http.Get("http://upstream/a")
		return err
	})
	_ = p.Wait() // want `^github.com/sourcegraph/conc/pool.\(\*ErrorPool\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// ConcContextPool's tasks use the context the pool gives them, derived
// from the request's: the join returns soon after the request ends.
func ConcContextPool(w http.ResponseWriter, r *http.Request) {
	p := pool.New().WithContext(r.Context())
	p.Go(func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "UPDATE t SET n = n + 1")
		return err
	})
	_ = p.Wait()
}

// ConcContextPoolSleeps has a task that ignores the pool's context.
func ConcContextPoolSleeps(w http.ResponseWriter, r *http.Request) {
	p := pool.New().WithContext(r.Context())
	p.Go(func(ctx context.Context) error {
		time.Sleep(time.Second)
		return nil
	})
	_ = p.Wait() // want `^github.com/sourcegraph/conc/pool.\(\*ContextPool\).Wait waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// ConcResults collects its tasks' results.
func ConcResults(w http.ResponseWriter, r *http.Request) {
	p := pool.NewWithResults[int]()
	p.Go(func() int {
		resp, err := http.Get("http://upstream/a")
		if err != nil {
			return 0
		}
		return resp.StatusCode
	})
	_ = p.Wait() // want `^github.com/sourcegraph/conc/pool.\(\*ResultPool\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// ConcResultErrors collects results and errors.
func ConcResultErrors(w http.ResponseWriter, r *http.Request) {
	p := pool.NewWithResults[int]().WithErrors()
	p.Go(func() (int, error) {
		resp, err := http.Get("http://upstream/a")
		if err != nil {
			return 0, err
		}
		return resp.StatusCode, nil
	})
	_, _ = p.Wait() // want `^github.com/sourcegraph/conc/pool.\(\*ResultErrorPool\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// ConcResultContext's task sleeps whatever its context says.
func ConcResultContext(w http.ResponseWriter, r *http.Request) {
	p := pool.NewWithResults[int]().WithContext(r.Context())
	p.Go(func(ctx context.Context) (int, error) {
		time.Sleep(time.Second)
		return 1, nil
	})
	_, _ = p.Wait() // want `^github.com/sourcegraph/conc/pool.\(\*ResultContextPool\).Wait waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// WorkerpoolStopWait runs every task of a pool of its own, then stops it.
func WorkerpoolStopWait(w http.ResponseWriter, r *http.Request) {
	wp := workerpool.New(4)
	wp.Submit(func() {
		_, _ = http.Get("http://upstream/a")
	})
	wp.StopWait() // want `^github.com/gammazero/workerpool.\(\*WorkerPool\).StopWait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// WorkerpoolStop waits for the tasks running, not the queued ones.
func WorkerpoolStop(w http.ResponseWriter, r *http.Request) {
	wp := workerpool.New(4)
	if err := wp.Do(func() { time.Sleep(time.Second) }); err != nil {
		return
	}
	wp.Stop() // want `^github.com/gammazero/workerpool.\(\*WorkerPool\).Stop waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// WorkerpoolCtx's task takes the request's context: its join is silent.
func WorkerpoolCtx(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	wp := workerpool.New(4)
	wp.Submit(func() { _, _ = db.ExecContext(ctx, "UPDATE t SET n = n + 1") })
	wp.StopWait()
}

var workers = workerpool.New(16)

// WorkerpoolSubmitWait waits for a free worker, then for its task.
func WorkerpoolSubmitWait(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	workers.SubmitWait(func() { _, _ = db.ExecContext(ctx, "UPDATE t SET n = n + 1") }) // want `^github.com/gammazero/workerpool.\(\*WorkerPool\).SubmitWait waits with no way to cancel it; Submit a task that closes a channel`
}

// WorkerpoolDoWait is SubmitWait returning ErrStopped.
func WorkerpoolDoWait(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	_ = workers.DoWait(func() { _, _ = db.ExecContext(ctx, "UPDATE t SET n = n + 1") }) // want `^github.com/gammazero/workerpool.\(\*WorkerPool\).DoWait waits with no way to cancel it; Do a task that closes a channel`
}

var antsPool, _ = ants.NewPool(16)

// AntsWaitGroup is ants' usual shape: tasks on a shared pool joined by a
// sync.WaitGroup, whose Wait joins what Submit was given.
func AntsWaitGroup(w http.ResponseWriter, r *http.Request) {
	var wg sync.WaitGroup
	wg.Add(1)
	_ = antsPool.Submit(func() {
		defer wg.Done()
		_, _ = http.Get("http://upstream/a")
	})
	wg.Wait() // want `^sync.\(\*WaitGroup\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}

// AntsDefault submits to ants' default pool.
func AntsDefault(w http.ResponseWriter, r *http.Request) {
	var wg sync.WaitGroup
	wg.Add(1)
	_ = ants.Submit(func() {
		defer wg.Done()
		time.Sleep(time.Second)
	})
	wg.Wait() // want `^sync.\(\*WaitGroup\).Wait waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// AntsCtx's task takes the request's context: its join is silent.
func AntsCtx(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var wg sync.WaitGroup
	wg.Add(1)
	_ = antsPool.Submit(func() {
		defer wg.Done()
		_, _ = db.ExecContext(ctx, "UPDATE t SET n = n + 1")
	})
	wg.Wait()
}

// AntsRelease releases a pool of its own once its task is done, up to a
// timeout that is not the request's.
func AntsRelease(w http.ResponseWriter, r *http.Request) {
	p, err := ants.NewPool(4)
	if err != nil {
		return
	}
	_ = p.Submit(func() { time.Sleep(time.Second) })
	_ = p.ReleaseTimeout(5 * time.Second) // want `^github.com/panjf2000/ants/v2.\(\*poolCommon\).ReleaseTimeout waits for goroutines that do not stop with the request's context \(time.Sleep at poolwaits.go:\d+:\d+\)`
}

// AntsMulti does the same over a MultiPool.
func AntsMulti(w http.ResponseWriter, r *http.Request) {
	mp, err := ants.NewMultiPool(2, 4, ants.RoundRobin)
	if err != nil {
		return
	}
	_ = mp.Submit(func() {
		_, _ = http.Get("http://upstream/a")
	})
	_ = mp.ReleaseTimeout(5 * time.Second) // want `^github.com/panjf2000/ants/v2.\(\*MultiPool\).ReleaseTimeout waits for goroutines that do not stop with the request's context \(net/http.Get at poolwaits.go:\d+:\d+\)`
}
