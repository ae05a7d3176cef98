package gate

import (
	"errors"
	"strings"
	"testing"

	"github.com/syncio/syncio/loadtest/report"
)

func summary() *report.Summary {
	return &report.Summary{
		Pair: &report.Pair{Baseline: "held", Candidate: "released"},
		Scenarios: []report.Scenario{
			{Name: "held", Steps: []report.Step{{Users: 1, ThroughputRPS: 10}, {Users: 200, ThroughputRPS: 39.6, LatencyP99S: ptr(1.7), Requests: 1400, OK: 396, Status503: 1004, Statuses: map[string]int{"200": 396, "503": 1004}}}},
			{Name: "released", Steps: []report.Step{{Users: 200, ThroughputRPS: 1957.1, LatencyP99S: ptr(0.11), Requests: 19575, OK: 19571, Errors: 1, Timeouts: 3, Statuses: map[string]int{"200": 19571, "500": 1, "0": 3}}}},
		},
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		expr string
		ok   bool
		msg  string // in the error when false
	}{
		{"candidate.ok_per_s >= 5*baseline.ok_per_s", true, ""},
		{"candidate.ok_per_s >= 60*baseline.ok_per_s", false, "candidate.ok_per_s >= 60*baseline.ok_per_s (candidate.ok_per_s = 1957.1, baseline.ok_per_s = 39.6)"},
		{"baseline.status_503 > 0", true, ""},
		{"candidate.errors == 0", false, "candidate.errors = 4"},
		{"candidate.status_500 == 1 && candidate.timeouts == 3", true, ""},
		{"candidate.non_ok <= 4 || baseline.ok == 0", true, ""},
		{"!(baseline.users != 200)", true, ""},
		{"(candidate.ok_per_s - baseline.ok_per_s) / baseline.ok_per_s > 100", false, "> 100"},
	} {
		a, err := Parse(c.expr)
		if err != nil {
			t.Fatalf("Parse(%q): %v", c.expr, err)
		}
		err = Check(summary(), []Assertion{a})
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok %v", c.expr, err, c.ok)
			continue
		}
		if err != nil && (!errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), c.msg)) {
			t.Errorf("%s: error %q does not wrap ErrFailed or name %q", c.expr, err, c.msg)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for expr, want := range map[string]string{
		"candidate.ok_per_sec > 1":       "unknown field candidate.ok_per_sec",
		"other.ok_per_s > 1":             "unknown name other.ok_per_s",
		"ok_per_s > 1":                   "unknown name ok_per_s",
		"candidate.ok_per_s":             "not a condition",
		"candidate.ok_per_s >":           "expected operand",
		`candidate.ok_per_s > "5"`:       "only numbers",
		"candidate.status_999 > 1":       "unknown field",
		"f(candidate.ok) > 1":            "not supported",
		"(candidate.ok > 1) + 1 > 0":     "needs numbers",
		"candidate.ok && candidate.ok>1": "joins conditions",
	} {
		if _, err := Parse(expr); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", expr, err, want)
		}
	}
}

// TestCheckMissingSide: an assertion on a side that did not run fails
// with words, not with a comparison against zeros.
func TestCheckMissingSide(t *testing.T) {
	s := summary()
	s.Pair.Candidate = ""
	a, _ := Parse("candidate.errors == 0")
	if err := Check(s, []Assertion{a}); err == nil || !strings.Contains(err.Error(), "candidate (none given) has no measured step") {
		t.Errorf("err = %v", err)
	}
}

// TestCheckUnknownFigures: a latency of a step with no OK response, or a
// sent rate of a closed loop, is unknown: an assertion on it fails and says
// why, where a comparison with 0 would pass "latency below 1 s".
func TestCheckUnknownFigures(t *testing.T) {
	s := summary()
	s.Scenarios[0].Steps[1].SetLatencies(0, 0, 0, 0, 0, 0)
	for expr, want := range map[string]string{
		"baseline.latency_p99_s < 1":                            "baseline.latency_p99_s is unknown: the baseline's top step had no OK response",
		"candidate.sent_rate >= 0.95*candidate.rate":            "candidate.sent_rate is unknown: the run was a closed loop",
		"candidate.latency_p99_s < 10 || baseline.ok_per_s > 0": "",
	} {
		a, err := Parse(expr)
		if err != nil {
			t.Fatal(err)
		}
		err = Check(s, []Assertion{a})
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", expr, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrFailed) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", expr, err, want)
		}
	}
	// An open loop's sent rate is read.
	s.Scenarios[1].Steps[0].RatePerS = 2000
	s.Scenarios[1].Steps[0].Sent = &report.Sent{RatePerS: 1500}
	a, _ := Parse("candidate.sent_rate >= 0.95*candidate.rate")
	if err := Check(s, []Assertion{a}); err == nil || !strings.Contains(err.Error(), "candidate.sent_rate = 1500") {
		t.Errorf("a short open loop passed or was not named: %v", err)
	}
}

func ptr(v float64) *float64 { return &v }
