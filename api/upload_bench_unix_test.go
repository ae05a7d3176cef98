//go:build unix

package api

import (
	"bytes"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// BenchmarkUpload posts 4 KiB uploads, as the lab does, to each upload
// route of an API over the embedded store (instant, in this process), from
// parallel keep-alive clients. allocs/op and B/op count the client and the
// store as well as the API; cpu-µs/op is the process's user+system CPU per
// upload. Compare runs of one build against another side by side
// (benchstat), not against a number.
func BenchmarkUpload(b *testing.B) {
	for _, kind := range []string{"sync", "async"} {
		b.Run(kind, func(b *testing.B) {
			cfg := testConfig()
			cfg.Workers, cfg.Queue = 100, 3000
			s, err := Start(b.Context(), cfg, testLogger(nil))
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = s.Shutdown(b.Context()) }()
			body := bytes.Repeat([]byte("syncio-4"), 512)
			url := s.URL() + "/api/" + kind + "/upload"
			tr := &http.Transport{MaxIdleConnsPerHost: 256}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: time.Minute}
			b.SetParallelism(16)
			b.ReportAllocs()
			cpu0 := rusageCPU()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := client.Post(url, "application/octet-stream", bytes.NewReader(body))
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					if resp.StatusCode != http.StatusCreated {
						b.Errorf("upload: %d", resp.StatusCode)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64((rusageCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

func rusageCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
