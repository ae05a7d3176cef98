package activity

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkTrackingParts times, one at a time, what a tracked run of
// Sequence of 5 does that an untracked one does not, so that the paired
// ratios (BenchmarkTrackingPaired) can be set against a floor: a health
// run takes an instance number, records 2 events and hands them over; a
// basic run also takes a pooled batch and records 12 more. See "Where the
// nanoseconds go" in docs/activities.md.
func BenchmarkTrackingParts(b *testing.B) {
	b.Run("instance", func(b *testing.B) {
		var seq atomic.Uint64
		for b.Loop() {
			seq.Add(1)
		}
	})
	// The hand-off's lock alone, uncontended: what any locked hand-off
	// costs before it copies anything.
	b.Run("lock", func(b *testing.B) {
		var (
			mu sync.Mutex
			n  int
		)
		for b.Loop() {
			mu.Lock()
			n++
			mu.Unlock()
		}
		if n != b.N {
			b.Fatalf("%d critical sections for %d iterations", n, b.N)
		}
	})
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			recBatches.Put(recBatches.Get().(*[maxBatch]rec))
		}
	})
	for _, n := range []int{2, 14} {
		b.Run(fmt.Sprintf("emit%d", n), func(b *testing.B) {
			var clock atomic.Int64
			clock.Store(1)
			r := &run{profile: ProfileBasic, clock: &clock, recs: make([]rec, 0, maxBatch)}
			for b.Loop() {
				for range n {
					r.emit(ActivityClosed, 1)
				}
				r.recs = r.recs[:0]
			}
		})
		b.Run(fmt.Sprintf("handoff%d", n), func(b *testing.B) {
			// No delivering goroutine: this is the hand-off itself (the
			// lock and the copy), without the contention of a drain on
			// another core. Emptying the buffer whenever it is nearly
			// full keeps every hand-off copying its records.
			buf := &Buffered{recs: make([]rec, 0, 1<<16), limit: 1 << 16}
			from := buf.register(&origin{workflow: "w", paths: []string{"", "a"}})
			recs := make([]rec, n)
			for b.Loop() {
				buf.put(from, 1, recs, nil)
				if len(buf.recs) > buf.limit-n {
					buf.recs, buf.hdrs = buf.recs[:0], buf.hdrs[:0]
				}
			}
			if d := buf.Dropped(); d != 0 {
				b.Fatalf("%d records dropped: the figure would not be a full hand-off", d)
			}
		})
	}
}
