package report

import (
	"fmt"
	"strings"
)

// ColdStart is the first-request latency of one scenario on a freshly
// started API next to its warm latency, over several trials.
type ColdStart struct {
	Name   string `json:"name"`
	Method string `json:"method"`
	Path   string `json:"path"`
	// Trials fresh servers were started; each served one first request and
	// then WarmRequests more, one at a time.
	Trials       int `json:"trials"`
	WarmRequests int `json:"warm_requests"`
	// FirstS holds each trial's first-request latency.
	FirstS []float64 `json:"first_s"`
	// WarmMedianS holds each trial's median over its warm requests.
	WarmMedianS []float64 `json:"warm_median_s"`
	// Medians over the trials, and their ratio (cold ÷ warm).
	FirstMedianOfTrialsS float64 `json:"first_median_s"`
	FirstMaxS            float64 `json:"first_max_s"`
	WarmMedianOfTrialsS  float64 `json:"warm_median_of_trials_s"`
	ColdWarmRatio        float64 `json:"cold_warm_ratio"`
}

// coldStartMarkdown renders the cold-start table, or "" without one.
func (s *Summary) coldStartMarkdown() string {
	if len(s.ColdStart) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Cold start vs warm\n\n")
	b.WriteString("Each trial starts a fresh in-process API (new pool, new storage client, new embedded fakes), opens the client's connection with `GET /healthz` (no handler, pool or storage work), then times the first request of the scenario and the median of the requests that follow, sent one at a time. Latencies are medians over the trials. The API creates its upload container at start-up, which already opens the shared storage client's connection; a per-request client dials on every request, first or not.\n\n")
	fmt.Fprintf(&b, "Profile service latency: %.3f s.\n\n", s.BackendLatencyS)
	b.WriteString("| scenario | trials | warm requests | first request s | first max s | warm median s | cold ÷ warm |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|--:|\n")
	for _, c := range s.ColdStart {
		fmt.Fprintf(&b, "| %s | %d | %d | %.4f | %.4f | %.4f | %.1f |\n",
			c.Name, c.Trials, c.WarmRequests, c.FirstMedianOfTrialsS, c.FirstMaxS, c.WarmMedianOfTrialsS, c.ColdWarmRatio)
	}
	b.WriteString("\n")
	return b.String()
}
