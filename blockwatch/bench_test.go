package blockwatch

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkSample is the cost of one sample with n labelled request
// goroutines parked (half holding a worker) among as many unlabelled ones,
// as a server at n users has: the number to multiply by the rate for the
// watcher's CPU share. go test -run '^$' -bench Sample ./blockwatch/
func BenchmarkSample(b *testing.B) {
	for _, n := range []int{100, 1000, 4000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			stop := make(chan struct{})
			for i := range n {
				go Do(context.Background(), "/r", func(ctx context.Context) {
					if i%2 == 0 {
						_, release := Hold(ctx, "pool")
						defer release()
					}
					receiver(stop)
				})
				go receiver(stop) // the connection's other goroutines
			}
			time.Sleep(100 * time.Millisecond) // let them park
			w := New(WithModule(module))
			b.ResetTimer()
			for b.Loop() {
				if err := w.sample(50 * time.Millisecond); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if r := w.Report(); len(r.Sites) == 0 {
				b.Fatal("nothing sampled")
			}
			close(stop)
		})
	}
}
