package report

import (
	"fmt"
	"strings"
)

// Sent is what an open-loop step achieved against the rate it asked for
// (Step.RatePerS). A generator that cannot keep up sends less than asked,
// and the step's figures are then those of a lower rate: an SLO read from
// the asked rate would be wrong, so the shortfall and its cause are said.
type Sent struct {
	// RatePerS is the requests sent in the window, by send time, per
	// second; AnsweredPerS the answers of any status, by completion.
	RatePerS     float64 `json:"rate_per_s"`
	AnsweredPerS float64 `json:"answered_per_s"`
	// Shortfall is 1 − sent ÷ asked (0 when it sent all it was asked).
	Shortfall float64 `json:"shortfall"`
	// The pacer's lateness: how long after its place in the schedule each
	// request left (vegeta's constant pacer catches up in bursts, so a
	// late p99 with no shortfall is a burstier load than asked).
	LateP50S float64 `json:"pacer_late_p50_s"`
	LateP99S float64 `json:"pacer_late_p99_s"`
	LateMaxS float64 `json:"pacer_late_max_s"`
	// AnswersAtCap counts answers that came with InFlightCap requests in
	// flight: the generator waited for the service before sending more.
	AnswersAtCap int `json:"answers_at_inflight_cap"`
	InFlightCap  int `json:"inflight_cap"`
	// Short is set when the step sent under SentEnough of the asked rate,
	// and Cause then names the side that was the limit, in words.
	Short bool   `json:"short"`
	Cause string `json:"cause,omitempty"`
}

// SentEnough is the share of the asked rate below which a step is marked
// short: vegeta's pacer keeps a steady rate to well within this, so less
// is a limit, not jitter.
const SentEnough = 0.95

// fdErrors are the transport errors of a generator out of sockets or file
// descriptors (aggregate.ErrorKind's wording of Go's errors).
var fdErrors = []string{"too many open files", "cannot assign requested address", "no buffer space available"}

// JudgeSent fills st.Sent's shortfall and its cause from the step's other
// figures: call it once the generator's CPU and the host's idle time are in.
func (st *Step) JudgeSent() {
	s := st.Sent
	if s == nil || st.RatePerS <= 0 {
		return
	}
	s.Shortfall = max(1-s.RatePerS/st.RatePerS, 0)
	s.Short = s.RatePerS < SentEnough*st.RatePerS
	s.Cause = ""
	if !s.Short {
		return
	}
	var why []string
	var fd int
	for k, n := range st.ErrorKinds {
		for _, e := range fdErrors {
			if strings.Contains(k, e) {
				fd += n
			}
		}
	}
	if fd > 0 {
		why = append(why, fmt.Sprintf("the generator's connection or file-descriptor limit (%d requests failed for want of a socket; raise ulimit -n or spread the load over machines)", fd))
	}
	if st.GeneratorCPU != nil && *st.GeneratorCPU > SaturatedGenerator {
		why = append(why, fmt.Sprintf("the generator's CPU (%.0f%% of all cores)", 100**st.GeneratorCPU))
	} else if st.HostCPUIdle != nil && *st.HostCPUIdle < SaturatedIdle {
		gen := "unknown"
		if st.GeneratorCPU != nil {
			gen = fmt.Sprintf("%.0f%%", 100**st.GeneratorCPU)
		}
		why = append(why, fmt.Sprintf("the host's CPU (%.0f%% idle; the generator itself at %s of all cores)", 100**st.HostCPUIdle, gen))
	}
	if s.AnswersAtCap > 0 {
		why = append(why, fmt.Sprintf("the service: %d answers came with the in-flight cap of %d reached, so the generator waited for answers before it could send", s.AnswersAtCap, s.InFlightCap))
	}
	if len(why) == 0 {
		var unseen []string
		if st.GeneratorCPU == nil {
			unseen = append(unseen, "the generator's CPU")
		}
		if st.HostCPUIdle == nil {
			unseen = append(unseen, "the host's idle time")
		}
		if len(unseen) > 0 {
			why = append(why, fmt.Sprintf("not known: %s not measured in the window (too short for a sample?), and no socket or in-flight limit showed (the pacer ran up to %.2f s late)", strings.Join(unseen, " and "), s.LateMaxS))
		} else {
			why = append(why, fmt.Sprintf("not seen: no CPU, socket or in-flight limit showed (the pacer ran up to %.2f s late)", s.LateMaxS))
		}
	}
	s.Cause = strings.Join(why, "; ")
}

// sentCell is the open loop's load cell: the asked rate, with what was
// sent when it was short, marked.
func (st Step) sentCell() string {
	asked := fmt.Sprintf("%g", st.RatePerS)
	if st.Sent == nil || !st.Sent.Short {
		return asked
	}
	return fmt.Sprintf("%s (sent %.0f)*", asked, st.Sent.RatePerS)
}

// ShortSteps are the lines under the tables for steps that sent less than
// asked, each with its cause.
func (s *Summary) ShortSteps() []string {
	var out []string
	for _, sc := range s.Scenarios {
		for _, st := range sc.Steps {
			if st.Sent == nil || !st.Sent.Short {
				continue
			}
			out = append(out, fmt.Sprintf("* %s step %d sent %.1f/s of the %g/s asked (%.0f%% short), answered %.1f/s; the limit: %s. Its figures are those of the rate sent, not the rate asked.",
				sc.Name, st.Index, st.Sent.RatePerS, st.RatePerS, 100*st.Sent.Shortfall, st.Sent.AnsweredPerS, st.Sent.Cause))
		}
	}
	return out
}
