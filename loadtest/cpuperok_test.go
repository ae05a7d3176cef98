package loadtest

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/loadtest/report"
)

// sampled is a sampler with four samples a second apart: the generator at
// half a core, the API child at one core, and a storage child whose
// /proc entry could not be read.
func sampled(t0 time.Time) *rssSampler {
	s := &rssSampler{kids: []kid{{report.ProcAPI, 100}, {report.ProcStorage, 200}}}
	gone := errors.New("open /proc/200/stat: no such file or directory")
	for i := range 4 {
		s.samples = append(s.samples, rssSample{
			at:   t0.Add(time.Duration(i) * time.Second),
			cpu:  time.Duration(i) * 500 * time.Millisecond,
			kids: []kidCPU{{cpu: time.Duration(i) * time.Second}, {err: gone}},
		})
	}
	return s
}

func nearly(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSamplerCPUSeconds: a process's CPU over a window is its rate between
// the samples inside the window times the window's length.
func TestSamplerCPUSeconds(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	s := sampled(t0)
	from, to := t0.Add(500*time.Millisecond), t0.Add(3500*time.Millisecond)
	if gen, why := s.cpuSeconds(report.ProcGenerator, from, to); gen == nil || !nearly(*gen, 1.5) {
		t.Errorf("generator over 3 s at half a core: %s (%s), want 1.5 s", report.Fig(gen, 3), why)
	}
	if api, why := s.cpuSeconds(report.ProcAPI, from, to); api == nil || !nearly(*api, 3) {
		t.Errorf("API over 3 s at one core: %s (%s), want 3 s", report.Fig(api, 3), why)
	}
	if st, why := s.cpuSeconds(report.ProcStorage, from, to); st != nil || !strings.Contains(why, "no such file") {
		t.Errorf("storage unreadable: %s, why %q", report.Fig(st, 3), why)
	}
	if one, why := s.cpuSeconds(report.ProcAPI, from, t0.Add(1500*time.Millisecond)); one != nil || !strings.Contains(why, "fewer than two") {
		t.Errorf("one sample in the window: %s, why %q", report.Fig(one, 3), why)
	}
	if none, why := (&rssSampler{}).cpuSeconds(report.ProcAPI, from, to); none != nil || why != "not sampled" {
		t.Errorf("a process not sampled: %s, why %q", report.Fig(none, 3), why)
	}
}

// TestStepCPU: each process's CPU per OK, or "–" with why: the storage not
// a child (the fake inside the API child, a -target), the API in the
// generator's process, no OK response, no sampling at all; and an API the
// lab did not start read from its /metrics.
func TestStepCPU(t *testing.T) {
	t0 := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	s := sampled(t0)
	st := report.Step{OK: 3000, DurationS: 3, WindowStart: t0.Add(500 * time.Millisecond), WindowEnd: t0.Add(3500 * time.Millisecond)}
	const inAPI = "the blob fake ran inside the API child (-storage-child=false): its CPU is in the API's"

	c := stepCPU(Config{ScrapeInterval: time.Second, APIPID: 100, NoStorageCPU: inAPI}, s, st, false)
	if c.APIUS == nil || !nearly(*c.APIUS, 1000) || c.APIFrom != "proc" || c.GeneratorUS == nil || !nearly(*c.GeneratorUS, 500) {
		t.Errorf("API child: API %s µs/OK from %q, generator %s; want 1000 from proc, 500", report.Fig(c.APIUS, 1), c.APIFrom, report.Fig(c.GeneratorUS, 1))
	}
	if c.StorageUS != nil || c.Missing[report.ProcStorage] != inAPI || c.TotalUS != nil || c.Missing[report.ProcTotal] == "" {
		t.Errorf("storage inside the API child: storage %s, total %s, missing %v", report.Fig(c.StorageUS, 1), report.Fig(c.TotalUS, 1), c.Missing)
	}

	c = stepCPU(Config{ScrapeInterval: time.Second, APIPID: 100, StoragePID: 200}, s, st, false)
	if c.StorageUS != nil || !strings.Contains(c.Missing[report.ProcStorage], "/proc/200/stat") {
		t.Errorf("storage child unreadable: %s, missing %v", report.Fig(c.StorageUS, 1), c.Missing)
	}

	c = stepCPU(Config{ScrapeInterval: time.Second, InProcess: true}, s, st, false)
	if c.APIUS != nil || !strings.Contains(c.Missing[report.ProcAPI], "-api in-process") || !strings.Contains(c.Missing[report.ProcStorage], "-api in-process") || c.GeneratorUS == nil {
		t.Errorf("in-process: API %s, generator %s, missing %v", report.Fig(c.APIUS, 1), report.Fig(c.GeneratorUS, 1), c.Missing)
	}

	scraped := st
	scraped.ServerCPUCores = ptrF(0.5)
	c = stepCPU(Config{ScrapeInterval: time.Second}, s, scraped, false)
	if c.APIUS == nil || !nearly(*c.APIUS, 500) || c.APIFrom != "metrics" || !strings.Contains(c.Missing[report.ProcStorage], "not a process the lab started") {
		t.Errorf("external API with /metrics: API %s µs/OK from %q, missing %v; want 500 from metrics", report.Fig(c.APIUS, 1), c.APIFrom, c.Missing)
	}
	c = stepCPU(Config{ScrapeInterval: time.Second}, s, st, true)
	if c.APIUS != nil || c.Missing[report.ProcAPI] != "the API's /metrics is not scraped" || c.APIFrom != "" {
		t.Errorf("external API, no /metrics: API %s from %q, missing %v", report.Fig(c.APIUS, 1), c.APIFrom, c.Missing)
	}

	none := st
	none.OK = 0
	c = stepCPU(Config{ScrapeInterval: time.Second, APIPID: 100}, s, none, false)
	if c.APIUS != nil || c.GeneratorUS != nil || c.Missing[report.ProcAPI] != report.NoOK || c.APICPUS == nil {
		t.Errorf("no OK: API %s µs/OK (%s s), missing %v", report.Fig(c.APIUS, 1), report.Fig(c.APICPUS, 1), c.Missing)
	}

	c = stepCPU(Config{APIPID: 100, StoragePID: 200}, s, st, false)
	for _, p := range []string{report.ProcAPI, report.ProcStorage, report.ProcGenerator} {
		if !strings.Contains(c.Missing[p], "-scrape 0") {
			t.Errorf("-scrape 0: %s's reason %q", p, c.Missing[p])
		}
	}
}

func ptrF(v float64) *float64 { return &v }
