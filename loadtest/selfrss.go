package loadtest

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// selfRSS is this process's resident set size in bytes, from Linux's
// /proc/self/statm; 0 where that does not exist.
func selfRSS() float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		return 0
	}
	return pages * float64(os.Getpagesize())
}

// rssSample is one reading of the load generator's own RSS.
type rssSample struct {
	at  time.Time
	rss float64
}

// rssSampler records the load generator's RSS at an interval, so its
// memory is reported apart from the API's (which comes from /metrics).
type rssSampler struct {
	mu      sync.Mutex
	samples []rssSample
}

func (s *rssSampler) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.mu.Lock()
		s.samples = append(s.samples, rssSample{time.Now(), selfRSS()})
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// max returns the highest RSS sampled in [from, to].
func (s *rssSampler) max(from, to time.Time) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m float64
	for _, smp := range s.samples {
		if !smp.at.Before(from) && !smp.at.After(to) {
			m = max(m, smp.rss)
		}
	}
	return m
}
