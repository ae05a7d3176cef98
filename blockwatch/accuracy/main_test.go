package main

import (
	"testing"
	"time"
)

// TestTimingClipsToTheWindow: only the part of a request, and of its
// wait, inside the watched stretch counts toward the timed truth.
func TestTimingClipsToTheWindow(t *testing.T) {
	t0 := time.Now()
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var tm timing
	tm.add(at(11), at(12), at(13), at(14)) // before the window is set: not counted
	tm.window(at(10), at(20))
	tm.add(at(5), at(8), at(12), at(15))   // starts before: 5 s of it, 2 s waiting
	tm.add(at(18), at(18), at(19), at(25)) // ends after: 2 s, 1 s waiting
	tm.add(at(21), at(21), at(22), at(23)) // after: nothing
	if tm.total != 7*time.Second || tm.waited != 3*time.Second || tm.requests != 2 {
		t.Errorf("total %v, waited %v, requests %d; want 7s, 3s, 2", tm.total, tm.waited, tm.requests)
	}
}
