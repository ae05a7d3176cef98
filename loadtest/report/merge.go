package report

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/aggregate"
)

// SummaryFile is the summary's file name inside a results folder.
const SummaryFile = "summary.json"

// Merge rebuilds one summary from the result folders of several load
// generators that attacked the same API at the same time. Each folder's
// results are sorted into that folder's own step windows (so clocks need
// not agree); then counts, users and OK/s add up, latency percentiles are
// recomputed over all OK results, and the server's figures (one server,
// scraped by each generator) take the maximum, or the mean for busy
// workers.
func Merge(dirs []string) (*Summary, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no result folders given")
	}
	var out *Summary
	type key struct {
		scenario string
		step     int
	}
	merged := map[key]*aggregate.Step{}
	busyN := map[key]int{}
	first := map[key]bool{}
	for _, dir := range dirs {
		s, err := ReadJSON(filepath.Join(dir, SummaryFile))
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = &Summary{Profile: s.Profile, BackendLatencyS: s.BackendLatencyS, Target: s.Target, StartedAt: s.StartedAt, Command: s.Command, Machine: s.Machine, Server: s.Server, InProcess: s.InProcess,
				APIProcess: s.APIProcess, UploadBackendLatencyS: s.UploadBackendLatencyS, Storage: s.Storage, NoServerMetrics: true}
			if s.Pair != nil {
				p := *s.Pair
				out.Pair = &p
			}
		}
		// One folder that read the server's /metrics makes its columns known.
		out.NoServerMetrics = out.NoServerMetrics && s.NoServerMetrics
		out.Sources = append(out.Sources, dir)
		// Each machine sent its own -rate: together they asked the sum.
		out.OpenLoopRate += s.OpenLoopRate
		for _, w := range s.Warnings {
			if !slices.Contains(out.Warnings, w) {
				out.Warnings = append(out.Warnings, w)
			}
		}
		if s.StartedAt.Before(out.StartedAt) {
			out.StartedAt = s.StartedAt
		}
		for _, sc := range s.Scenarios {
			wins, err := rescan(dir, sc)
			if err != nil {
				return nil, err
			}
			dst := scenarioNamed(out, sc)
			dst.APIRSSMaxBytes = maxKnown(dst.APIRSSMaxBytes, sc.APIRSSMaxBytes)
			dst.GeneratorRSSMaxBytes = max(dst.GeneratorRSSMaxBytes, sc.GeneratorRSSMaxBytes)
			for i, st := range sc.Steps {
				k := key{sc.Name, st.Index}
				stats := wins.Steps[i].Stats(wins.Windows[i].Len())
				if _, seen := first[k]; !seen {
					first[k] = true
				}
				d := stepIndexed(dst, st)
				d.Users += st.Users
				d.RatePerS += st.RatePerS
				if st.Sent != nil {
					if d.Sent == nil {
						d.Sent = &Sent{}
					}
					d.Sent.RatePerS += st.Sent.RatePerS
					d.Sent.AnsweredPerS += st.Sent.AnsweredPerS
					d.Sent.AnswersAtCap += st.Sent.AnswersAtCap
					d.Sent.InFlightCap += st.Sent.InFlightCap
					// The latest machine's pacer is the one that fell behind.
					d.Sent.LateP50S = max(d.Sent.LateP50S, st.Sent.LateP50S)
					d.Sent.LateP99S = max(d.Sent.LateP99S, st.Sent.LateP99S)
					d.Sent.LateMaxS = max(d.Sent.LateMaxS, st.Sent.LateMaxS)
				}
				d.ThroughputRPS += stats.ThroughputRPS
				d.Status503RPS += stats.RejectedRPS
				d.QueueLengthMax = maxKnown(d.QueueLengthMax, st.QueueLengthMax)
				d.ServerRSSBytes = maxKnown(d.ServerRSSBytes, st.ServerRSSBytes)
				d.ServerGoroutines = maxKnown(d.ServerGoroutines, st.ServerGoroutines)
				// Every folder scraped the same API: its cores are one figure, not a sum.
				d.ServerCPUCores = maxKnown(d.ServerCPUCores, st.ServerCPUCores)
				d.Rejected = maxKnown(d.Rejected, st.Rejected)
				d.Workers = maxKnown(d.Workers, st.Workers)
				// The watcher's figure is the one API's, seen by every folder.
				d.BlockedHoldingWorker = maxKnown(d.BlockedHoldingWorker, st.BlockedHoldingWorker)
				d.WatcherSamples = maxKnown(d.WatcherSamples, st.WatcherSamples)
				// Unknown only while no folder's window had samples enough.
				if d.BlockedHoldingWorker != nil {
					d.BlockedMissing = ""
				} else if d.BlockedMissing == "" {
					d.BlockedMissing = st.BlockedMissing
				}
				// Each folder's generator is a process of its own, often on a
				// machine of its own: the busiest one is the one that may have
				// been the limit.
				d.GeneratorRSSBytes = max(d.GeneratorRSSBytes, st.GeneratorRSSBytes)
				d.GeneratorCPU = maxKnown(d.GeneratorCPU, st.GeneratorCPU)
				d.HostCPUIdle = minKnown(d.HostCPUIdle, st.HostCPUIdle)
				// Only folders that read the busy gauge know it; averaging
				// in one that did not would halve the mean.
				if st.WorkersBusyMean != nil {
					d.WorkersBusyMean = ptr(deref(d.WorkersBusyMean) + *st.WorkersBusyMean)
					busyN[k]++
				}
				mergeCPU(&d.CPUPerOK, st.CPUPerOK, first[k])
				// One folder with a server sample makes the step's server figures known.
				if first[k] {
					d.ServerMissing = st.ServerMissing
				} else if st.ServerMissing == "" {
					d.ServerMissing = ""
				}
				first[k] = false
				if merged[k] == nil {
					merged[k] = &aggregate.Step{}
				}
				merged[k].Merge(wins.Steps[i])
			}
		}
	}
	for si := range out.Scenarios {
		sc := &out.Scenarios[si]
		for i := range sc.Steps {
			st := &sc.Steps[i]
			k := key{sc.Name, st.Index}
			agg := merged[k].Stats(0)
			st.Requests, st.OK, st.Status503, st.Errors, st.Timeouts = agg.Requests, agg.OK, agg.Rejected, agg.Errors, agg.Timeouts
			st.SetLatencies(agg.OK, agg.LatencyMean, agg.P50, agg.P95, agg.P99, agg.Max)
			st.SetBreakdown(agg.Codes, agg.ErrorKinds)
			st.CPUPerOK.Derive(st.OK)
			if busyN[k] > 0 {
				st.WorkersBusyMean = ptr(*st.WorkersBusyMean / float64(busyN[k]))
			}
			st.JudgeSent()
		}
	}
	out.ComputeHeadline()
	return out, nil
}

func scenarioNamed(s *Summary, like Scenario) *Scenario {
	for i := range s.Scenarios {
		if s.Scenarios[i].Name == like.Name {
			return &s.Scenarios[i]
		}
	}
	s.Scenarios = append(s.Scenarios, Scenario{Name: like.Name, Path: like.Path, Method: like.Method, Blocking: like.Blocking})
	return &s.Scenarios[len(s.Scenarios)-1]
}

// stepIndexed finds or adds the step with like's index, keeping one
// folder's window times and users at zero for the caller to sum.
func stepIndexed(sc *Scenario, like Step) *Step {
	for i := range sc.Steps {
		if sc.Steps[i].Index == like.Index {
			return &sc.Steps[i]
		}
	}
	sc.Steps = append(sc.Steps, Step{Index: like.Index, DurationS: like.DurationS, StepStart: like.StepStart, WindowStart: like.WindowStart, WindowEnd: like.WindowEnd})
	slices.SortFunc(sc.Steps, func(a, b Step) int { return a.Index - b.Index })
	return stepFind(sc, like.Index)
}

func stepFind(sc *Scenario, index int) *Step {
	for i := range sc.Steps {
		if sc.Steps[i].Index == index {
			return &sc.Steps[i]
		}
	}
	return nil
}

// rescan re-reads a scenario's result file and sorts it into its windows.
func rescan(dir string, sc Scenario) (*aggregate.Windows, error) {
	ws := make([]aggregate.Window, len(sc.Steps))
	for i, st := range sc.Steps {
		ws[i] = aggregate.Window{From: st.WindowStart, To: st.WindowEnd}
	}
	wins := aggregate.NewWindows(ws)
	if sc.ResultsFile == "" {
		return nil, fmt.Errorf("%s: scenario %s names no results file", dir, sc.Name)
	}
	err := EachResult(filepath.Join(dir, sc.ResultsFile), func(r *vegeta.Result) error {
		wins.Add(r)
		return nil
	})
	return wins, err
}

// EachResult decodes every result in a vegeta result file (gob, JSON or
// CSV, as `vegeta encode` writes them) and calls fn on each.
func EachResult(path string, fn func(*vegeta.Result) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("opening results: %w", err)
	}
	defer f.Close()
	dec := vegeta.DecoderFor(f)
	if dec == nil {
		st, _ := f.Stat()
		if st != nil && st.Size() == 0 {
			return nil
		}
		return fmt.Errorf("%s: not a vegeta result file", path)
	}
	for {
		var r vegeta.Result
		if err := dec.Decode(&r); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("decoding %s: %w", path, err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
}

// maxKnown is the larger of two optional figures; unknown only if both are.
func maxKnown(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return ptr(max(*a, *b))
}

func ptr(v float64) *float64 { return &v }

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// minKnown is the smaller of two optional figures; unknown only if both are.
func minKnown(a, b *float64) *float64 {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return ptr(min(*a, *b))
}
