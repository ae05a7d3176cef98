package after

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The figures in docs/remediation/SIO005.md ("Size the limit by Little's
// law") come from BenchmarkQuoteLimit:
//
//	go test -run '^$' -bench BenchmarkQuoteLimit -benchtime 10s ./examples/remediation/concurrency/after/
//
// benchUsers closed-loop users ask for one price each, again as soon as
// they have an answer, through Quote and a limiter of each size to a price
// service that answers in benchLatency. The offered rate is then
// benchUsers ÷ benchLatency, and LittleLimit of it is benchUsers.

const (
	benchUsers   = 200
	benchLatency = 100 * time.Millisecond
)

// sleepyPrices is a price service in the process: every call takes
// latency, or ends with the caller's context.
type sleepyPrices struct{ latency time.Duration }

func (s sleepyPrices) RoundTrip(r *http.Request) (*http.Response, error) {
	t := time.NewTimer(s.latency)
	defer t.Stop()
	select {
	case <-t.C:
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
	return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader("1.5")), Request: r}, nil
}

func BenchmarkQuoteLimit(b *testing.B) {
	target := float64(benchUsers) / benchLatency.Seconds()
	for _, c := range []struct {
		name  string
		limit int64
	}{
		{"naive=64", 64},
		{"little=LittleLimit(2000/s,100ms)", LittleLimit(target, benchLatency)},
	} {
		b.Run(c.name, func(b *testing.B) {
			q := NewQuotes(&Prices{Client: &http.Client{Transport: sleepyPrices{benchLatency}}, URL: "http://prices.test"}, c.limit)
			var ok, shed, other atomic.Int64
			var mu sync.Mutex
			var okLat []time.Duration
			b.SetParallelism(max(1, benchUsers/runtime.GOMAXPROCS(0)))
			b.ResetTimer()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					rec := httptest.NewRecorder()
					t0 := time.Now()
					q.Quote(rec, httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/quote?item=a", nil))
					switch rec.Code {
					case http.StatusOK:
						ok.Add(1)
						mine = append(mine, time.Since(t0))
					case http.StatusServiceUnavailable:
						shed.Add(1)
					default:
						other.Add(1)
					}
				}
				mu.Lock()
				okLat = append(okLat, mine...)
				mu.Unlock()
			})
			elapsed := time.Since(start).Seconds()
			b.StopTimer()
			if other.Load() > 0 {
				b.Fatalf("%d answers neither 200 nor 503", other.Load())
			}
			b.ReportMetric(float64(ok.Load())/elapsed, "ok/s")
			b.ReportMetric(float64(shed.Load())/elapsed, "503/s")
			if len(okLat) > 0 {
				slices.Sort(okLat)
				b.ReportMetric(float64(okLat[len(okLat)*99/100])/float64(time.Millisecond), "p99-ok-ms")
			}
		})
	}
}
