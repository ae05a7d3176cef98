package blockwatch

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkSample is the cost of one sample with n labelled request
// goroutines parked (half holding a worker) among as many unlabelled ones,
// as a server at n users has: the number to multiply by the rate for the
// watcher's CPU share. cpu-ns/op is the sampling thread's CPU time, which
// the budget counts; ns/op, the wall time, is larger on a busy machine.
// go test -run '^$' -bench Sample ./blockwatch/
func BenchmarkSample(b *testing.B) {
	for _, n := range []int{100, 1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			defer park(n)()
			w := New(WithModule(module))
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0, ok := threadCPU()
			for b.Loop() {
				if err := w.sample(50 * time.Millisecond); err != nil {
					b.Fatal(err)
				}
			}
			if c1, ok1 := threadCPU(); ok && ok1 {
				b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
			}
			if r := w.Report(); len(r.Sites) == 0 {
				b.Fatal("nothing sampled")
			}
		})
	}
}

// BenchmarkStackAll is the alternative the package does not use: one
// runtime.Stack(all) dump, which stops the world while it formats every
// goroutine and carries no labels (the middleware would have to record
// goroutine ids), before any parsing.
func BenchmarkStackAll(b *testing.B) {
	for _, n := range []int{100, 1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			defer park(n)()
			buf := make([]byte, 64<<20)
			for b.Loop() {
				if m := runtime.Stack(buf, true); m == len(buf) {
					b.Fatal("dump truncated")
				}
			}
		})
	}
}

// park starts n labelled request goroutines (half holding a worker) and n
// unlabelled ones, all parked, as a server at n users has; the returned
// func releases them.
func park(n int) (stop func()) {
	ch := make(chan struct{})
	for i := range n {
		go Do(context.Background(), "/r", func(ctx context.Context) {
			if i%2 == 0 {
				_, release := Hold(ctx, "pool")
				defer release()
			}
			receiver(ch)
		})
		go receiver(ch) // the connection's other goroutines
	}
	time.Sleep(100 * time.Millisecond) // let them park
	return func() { close(ch) }
}
