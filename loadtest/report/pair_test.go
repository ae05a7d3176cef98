package report

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
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
	if got, want := deref(h.ThroughputRatio), 300.0/36; got != want {
		t.Errorf("throughput_ratio = %v, want candidate/baseline %v", got, want)
	}
	if got, want := deref(h.MeanLatencyRatio), 1.1/0.13; got != want {
		t.Errorf("mean_latency_ratio = %v, want baseline/candidate %v", got, want)
	}
	if s.Pair.LittlesLawLatencyS != 0.125 {
		t.Errorf("Little's-law latency = %v, want the candidate's first-step mean 0.125", s.Pair.LittlesLawLatencyS)
	}
	if got, want := deref(h.AsyncLittlesLawEfficiency), 300/(40/0.125); got != want {
		t.Errorf("efficiency = %v, want %v", got, want)
	}
	if s.UploadHeadline != nil || s.HasUploadHeadline() {
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
	if back.Pair == nil || !reflect.DeepEqual(back.Headline, s.Headline) {
		t.Errorf("after JSON: pair %+v headline %+v, want %+v", back.Pair, back.Headline, s.Headline)
	}

	lone := &Summary{Pair: &Pair{Baseline: "held"}, Scenarios: s.Scenarios[:1]}
	lone.ComputeHeadline()
	if lone.Headline.ThroughputRatio != nil || lone.Headline.Note == "" {
		t.Errorf("one endpoint: headline %+v, want no ratio and a note", lone.Headline)
	}
}

// TestUnknownIsNotZero: a baseline with no OK response at its top step
// has no latency and gives no ratio: null in summary.json with the reason,
// "–" in the tables and the headline, where a 0 would read as measured
// ("ratio 0.0x", "0 s mean latency").
func TestUnknownIsNotZero(t *testing.T) {
	none := Step{Index: 2, Users: 40, DurationS: 10, Requests: 400, Status503: 400, Statuses: map[string]int{"503": 400}}
	none.SetLatencies(0, 0, 0, 0, 0, 0)
	good := Step{Index: 2, Users: 40, DurationS: 10, Requests: 400, OK: 400, ThroughputRPS: 40}
	good.SetLatencies(400, 0.1, 0.1, 0.2, 0.3, 0.4)
	s := &Summary{Pair: &Pair{Baseline: "held", Candidate: "released"}, Scenarios: []Scenario{
		{Name: "held", Steps: []Step{none}}, {Name: "released", Steps: []Step{good}}}}
	s.ComputeHeadline()
	path := filepath.Join(t.TempDir(), SummaryFile)
	if err := s.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	for _, want := range []string{`"latency_p99_s": null`, `"latency_missing": "no OK response in the window`, `"throughput_ratio": null`,
		`"mean_latency_ratio": null`, `"ratio_missing": "held had no OK response at its top step`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("summary.json lacks %s", want)
		}
	}
	var table, md bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteMarkdown(&md, nil); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": table.String(), "summary.md": md.String()} {
		if strings.Contains(out, "0.0x") || strings.Contains(out, "held 0.00 s") || !strings.Contains(out, "(throughput ratio –)") {
			t.Errorf("%s reads unknown as 0:\n%s", name, out)
		}
		if !strings.Contains(out, "– means unknown: held had no OK response") {
			t.Errorf("%s does not say why the ratios are unknown:\n%s", name, out)
		}
	}
	if !strings.Contains(md.String(), "| held | 40 | 10 | 400 | 0 | 400 | 0 | 0 | 0.0 | – | – | – | – | – |") {
		t.Errorf("summary.md's row for the step without OK responses:\n%s", md.String())
	}
}
