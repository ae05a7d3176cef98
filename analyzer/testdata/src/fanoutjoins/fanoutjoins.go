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
