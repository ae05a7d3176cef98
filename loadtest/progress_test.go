package loadtest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
)

// A pool that completes in lockstep batches every 2 s must not read as 0
// when sampled on the quiet second.
func TestRateHistoryAveragesBatches(t *testing.T) {
	var h rateHistory
	var done int64
	var rps float64
	for sec := 1; sec <= 10; sec++ {
		if sec%2 == 1 {
			done += 100 // a batch completes on odd seconds only
		}
		rps, _ = h.add(done, done, 10)
	}
	if rps != 50 {
		t.Fatalf("rate over 10 s of 100-request batches every 2 s = %v, want 50", rps)
	}
	// A new scenario resets the counters: the rate restarts from zero.
	rps, okps := h.add(20, 10, 10)
	if rps != 20 || okps != 10 {
		t.Fatalf("after reset: rps %v ok/s %v, want 20 and 10", rps, okps)
	}
}

// The progress output ends with both headlines once both pairs ran.
func TestProgressShowsBothHeadlines(t *testing.T) {
	sum := &report.Summary{BackendLatencyS: 2, UploadBackendLatencyS: 0.05, Scenarios: []report.Scenario{
		{Name: report.HeadlineSync, Steps: []report.Step{{Users: 4000, ThroughputRPS: 50}}},
		{Name: report.HeadlineAsync, Steps: []report.Step{{Users: 4000, ThroughputRPS: 2000}}},
		{Name: report.UploadHeadlineSync, Steps: []report.Step{{Users: 4000, ThroughputRPS: 1000}}},
		{Name: report.UploadHeadlineAsync, APIRSSMaxBytes: ptr(700e6), Steps: []report.Step{{Users: 4000, ThroughputRPS: 4000}}},
	}}
	sum.ComputeHeadline()
	var out bytes.Buffer
	p := newProgress(Config{Progress: &out, Scenarios: []Scenario{{Name: "x"}}, Profile: schedule.Quick()})
	p.headlines(progressHeadlines(sum))
	p.done()
	if got := out.String(); !strings.Contains(got, "profile 40.0x, upload 4.0x (API RSS max 700 MB)") || !strings.HasPrefix(got, "done: 1 scenarios in") {
		t.Fatalf("progress output %q", got)
	}
}

func ptr(v float64) *float64 { return &v }
