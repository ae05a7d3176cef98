package after

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The figures in docs/remediation/SIO003.md ("Caches that expire") come
// from BenchmarkHotKey:
//
//	go test -run '^$' -bench BenchmarkHotKey -benchtime 10s ./examples/remediation/locks/after/
//
// hotUsers users read one key, each pausing hotThink between reads,
// through a TTLCache whose loads take hotLoad: with no stale window (the
// TTL with singleflight alone) and with one (stale-while-revalidate).

const (
	hotUsers = 200
	hotThink = 10 * time.Millisecond
	hotLoad  = 50 * time.Millisecond
	hotTTL   = 100 * time.Millisecond
)

func BenchmarkHotKey(b *testing.B) {
	for _, c := range []struct {
		name  string
		stale time.Duration
	}{
		{"singleflight", 0},
		{"stale-while-revalidate", time.Second},
	} {
		b.Run(c.name, func(b *testing.B) {
			var loads atomic.Int64
			load := func(ctx context.Context, _ string) ([]byte, error) {
				loads.Add(1)
				t := time.NewTimer(hotLoad)
				defer t.Stop()
				select {
				case <-t.C:
					return []byte("price"), nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			cache := NewTTLCache(load, hotTTL, c.stale)
			if _, err := cache.Get(context.Background(), "hot"); err != nil {
				b.Fatal(err)
			}
			loads.Store(0)
			var mu sync.Mutex
			var lat []time.Duration
			b.SetParallelism(max(1, hotUsers/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					t0 := time.Now()
					if _, err := cache.Get(context.Background(), "hot"); err != nil {
						b.Error(err)
						return
					}
					mine = append(mine, time.Since(t0))
					time.Sleep(hotThink)
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(start).Seconds()
			b.StopTimer()
			slices.Sort(lat)
			waited := 0
			for _, d := range lat {
				if d >= time.Millisecond {
					waited++
				}
			}
			b.ReportMetric(float64(len(lat))/elapsed, "gets/s")
			b.ReportMetric(100*float64(waited)/float64(len(lat)), "waited-pct")
			b.ReportMetric(float64(lat[len(lat)*99/100])/float64(time.Millisecond), "p99-ms")
			b.ReportMetric(float64(loads.Load())/elapsed, "loads/s")
		})
	}
}
