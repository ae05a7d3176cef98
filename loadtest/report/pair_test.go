package report

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestComputeHeadlineForGivenPair: with the user's own endpoints the first
// is the baseline (sync-side keys), the second the candidate (async-side
// keys), and the Little's-law limit is the top users over the candidate's
// mean latency at the first step, not the demo's backend latency.
func TestComputeHeadlineForGivenPair(t *testing.T) {
	s := &Summary{BackendLatencyS: 2, Pair: &Pair{Baseline: "held", Candidate: "released"}, Scenarios: []Scenario{
		{Name: "held", Steps: []Step{step(1, 9, 0.11, 90, 90), step(40, 36, 1.1, 800, 720)}},
		{Name: "released", Steps: []Step{step(1, 8, 0.125, 80, 80), step(40, 300, 0.13, 6000, 5990)}},
		// A third endpoint must not change the pair.
		{Name: "other", Steps: []Step{step(40, 1, 1, 1, 1)}},
	}}
	s.ComputeHeadline()
	h := s.Headline
	if h.Users != 40 || h.SyncThroughputRPS != 36 || h.AsyncThroughputRPS != 300 || h.Sync503 != 80 || h.AsyncErrors != 10 {
		t.Errorf("headline = %+v", h)
	}
	if got, want := h.ThroughputRatio, 300.0/36; got != want {
		t.Errorf("throughput_ratio = %v, want candidate/baseline %v", got, want)
	}
	if got, want := h.MeanLatencyRatio, 1.1/0.13; got != want {
		t.Errorf("mean_latency_ratio = %v, want baseline/candidate %v", got, want)
	}
	if s.Pair.LittlesLawLatencyS != 0.125 {
		t.Errorf("Little's-law latency = %v, want the candidate's first-step mean 0.125", s.Pair.LittlesLawLatencyS)
	}
	if got, want := h.AsyncLittlesLawEfficiency, 300/(40/0.125); got != want {
		t.Errorf("efficiency = %v, want %v", got, want)
	}
	if s.UploadHeadline != (UploadHeadline{}) || s.HasUploadHeadline() {
		t.Errorf("upload headline for given endpoints: %+v", s.UploadHeadline)
	}
	text := s.HeadlineText()
	for _, want := range []string{"released 300.0 OK/s vs held 36.0 OK/s", "8.3x", "released's mean latency at the first step", "held got 80 503s"} {
		if !strings.Contains(text, want) {
			t.Errorf("headline text lacks %q: %s", want, text)
		}
	}

	// The pair survives summary.json, so `report` redraws the same headline.
	path := filepath.Join(t.TempDir(), SummaryFile)
	if err := s.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	back.ComputeHeadline()
	if back.Pair == nil || back.Headline != s.Headline {
		t.Errorf("after JSON: pair %+v headline %+v, want %+v", back.Pair, back.Headline, s.Headline)
	}

	lone := &Summary{Pair: &Pair{Baseline: "held"}, Scenarios: s.Scenarios[:1]}
	lone.ComputeHeadline()
	if lone.Headline.ThroughputRatio != 0 || lone.Headline.Note == "" {
		t.Errorf("one endpoint: headline %+v, want no ratio and a note", lone.Headline)
	}
}
