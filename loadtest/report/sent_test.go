package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestJudgeSent: a step that sent under 95% of its asked rate is marked
// short, with the side that was the limit; one within reach is not.
func TestJudgeSent(t *testing.T) {
	for _, c := range []struct {
		name  string
		st    Step
		short bool
		cause string
	}{
		{"within reach", Step{RatePerS: 100, Sent: &Sent{RatePerS: 98}}, false, ""},
		{"generator CPU", Step{RatePerS: 4000, GeneratorCPU: ptr(0.97), HostCPUIdle: ptr(0.01), Sent: &Sent{RatePerS: 760}}, true, "the generator's CPU (97% of all cores)"},
		{"host CPU", Step{RatePerS: 4000, GeneratorCPU: ptr(0.3), HostCPUIdle: ptr(0.02), Sent: &Sent{RatePerS: 1200}}, true, "the host's CPU (2% idle; the generator itself at 30% of all cores)"},
		{"in-flight cap", Step{RatePerS: 100, GeneratorCPU: ptr(0.05), HostCPUIdle: ptr(0.9), Sent: &Sent{RatePerS: 20, AnswersAtCap: 18, InFlightCap: 4}}, true, "the service: 18 answers came with the in-flight cap of 4 reached"},
		{"sockets", Step{RatePerS: 5000, ErrorKinds: map[string]int{"socket: too many open files": 300}, Sent: &Sent{RatePerS: 3000}}, true, "file-descriptor limit (300 requests"},
		{"nothing seen", Step{RatePerS: 100, GeneratorCPU: ptr(0.05), HostCPUIdle: ptr(0.9), Sent: &Sent{RatePerS: 80, LateMaxS: 0.4}}, true, "not seen: no CPU, socket or in-flight limit showed (the pacer ran up to 0.40 s late)"},
		{"CPU not measured", Step{RatePerS: 100, Sent: &Sent{RatePerS: 80}}, true, "not known: the generator's CPU and the host's idle time not measured"},
	} {
		c.st.JudgeSent()
		if c.st.Sent.Short != c.short || !strings.Contains(c.st.Sent.Cause, c.cause) {
			t.Errorf("%s: short %v, cause %q; want %v, %q", c.name, c.st.Sent.Short, c.st.Sent.Cause, c.short, c.cause)
		}
	}
}

// TestShortStepInTables: the table and summary.md show what a short step
// sent beside what it asked, and the line under them says why; a step
// within reach shows the asked rate alone.
func TestShortStepInTables(t *testing.T) {
	s := &Summary{Profile: "custom", OpenLoopRate: 4000, Scenarios: []Scenario{{Name: "a", Steps: []Step{
		{Index: 1, Users: 1, RatePerS: 400, Sent: &Sent{RatePerS: 399}},
		{Index: 2, Users: 10, RatePerS: 4000, GeneratorCPU: ptr(0.99), Sent: &Sent{RatePerS: 760, AnsweredPerS: 750}},
	}}}}
	for i := range s.Scenarios[0].Steps {
		s.Scenarios[0].Steps[i].JudgeSent()
	}
	var table, md bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := s.WriteMarkdown(&md, nil); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"table": table.String(), "summary.md": md.String()} {
		if !strings.Contains(out, "4000 (sent 760)*") || strings.Contains(out, "400 (sent") {
			t.Errorf("%s does not mark the short step alone:\n%s", name, out)
		}
		if !strings.Contains(out, "a step 2 sent 760.0/s of the 4000/s asked (81% short), answered 750.0/s; the limit: the generator's CPU") {
			t.Errorf("%s lacks the short step's line:\n%s", name, out)
		}
		if !strings.Contains(out, "rate/s") || !strings.Contains(out, "goroutines") {
			t.Errorf("%s does not label the load column rate/s, or lacks the goroutines column", name)
		}
	}
}
