// Package fanoutjoins is the idiomatic Go fan-out on a request path: a
// join is cancellable when every goroutine it joins is bound to the
// request's context, and SIO005 flags only joins over goroutines that
// ignore it.
package fanoutjoins

import (
	"database/sql"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
)

var db *sql.DB

// Group is errgroup.WithContext with every goroutine on the group's
// context: Wait returns soon after the request ends.
func Group(w http.ResponseWriter, r *http.Request) {
	g, ctx := errgroup.WithContext(r.Context())
	for _, id := range []string{"a", "b"} {
		g.Go(func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://upstream/"+id, nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			return resp.Body.Close()
		})
	}
	_ = g.Wait()
}

// Workers joins ctx-aware queries with a WaitGroup.
func Workers(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var wg sync.WaitGroup
	for _, id := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = db.QueryContext(ctx, "SELECT 1 WHERE id = $1", id)
		}()
	}
	wg.Wait()
}

// Compute joins goroutines that only compute: as short as the work.
func Compute(w http.ResponseWriter, r *http.Request) {
	var wg sync.WaitGroup
	sums := make([]int, 4)
	for i := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 1000 {
				sums[i] += j
			}
		}()
	}
	wg.Wait()
}

// Ignores joins goroutines that ignore the request's context.
func Ignores(w http.ResponseWriter, r *http.Request) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = http.Get("http://upstream") // a goroutine: not the request path itself
	}()
	wg.Wait() // want `^sync.\(\*WaitGroup\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at fanoutjoins.go:\d+:\d+\); use errgroup.WithContext`
}

// Sleeps uses errgroup, but its goroutines sleep with no way to cancel.
func Sleeps(w http.ResponseWriter, r *http.Request) {
	g, _ := errgroup.WithContext(r.Context())
	g.Go(func() error {
		time.Sleep(time.Second)
		return nil
	})
	_ = g.Wait() // want `^golang.org/x/sync/errgroup.\(\*Group\).Wait waits for goroutines that do not stop with the request's context \(time.Sleep`
}

var pending sync.WaitGroup

// Elsewhere waits for goroutines started somewhere unknown: still flagged.
func Elsewhere(w http.ResponseWriter, r *http.Request) {
	pending.Wait() // want `^sync.\(\*WaitGroup\).Wait waits with no way to cancel it`
}

// Pool is a CPU worker pool (issue 21): a feeder goroutine hands the jobs
// over a channel it closes, the workers range over it and only compute.
// Its channel operations are the pool's own hand-over, not a wait on the
// outside world: the join is as short as the work.
func Pool(w http.ResponseWriter, r *http.Request) {
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range 64 {
			jobs <- i
		}
	}()
	sums := make([]int, 4)
	var wg sync.WaitGroup
	for k := range sums {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				sums[k] += j * j
			}
		}()
	}
	wg.Wait()
}

// Lanes runs a closure kept in a local variable, as argon2 does: the work
// is that literal, which only computes.
func Lanes(w http.ResponseWriter, r *http.Request) {
	lanes := [][]byte{{1}, {2}}
	mix := func(lane []byte, wg *sync.WaitGroup) {
		defer wg.Done()
		for i := range lane {
			lane[i] ^= byte(i)
		}
	}
	var wg sync.WaitGroup
	for _, lane := range lanes {
		wg.Add(1)
		go mix(lane, &wg)
	}
	wg.Wait()
}

// FetchPool is the same pool whose workers fetch with no context: the
// join waits for I/O the request cannot stop.
func FetchPool(w http.ResponseWriter, r *http.Request) {
	urls := make(chan string)
	go func() {
		defer close(urls)
		urls <- "http://upstream/a"
	}()
	fetch := func(wg *sync.WaitGroup) {
		defer wg.Done()
		for u := range urls {
			_, _ = http.Get(u)
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go fetch(&wg)
	go fetch(&wg)
	wg.Wait() // want `^sync.\(\*WaitGroup\).Wait waits for goroutines that do not stop with the request's context \(net/http.Get at fanoutjoins.go:\d+:\d+\)`
}
