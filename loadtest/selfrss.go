package loadtest

import (
	"context"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/syncio/syncio/loadtest/report"
)

// selfRSS is this process's resident set size in bytes, from Linux's
// /proc/self/statm; 0 where that does not exist.
func selfRSS() float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		return 0
	}
	return pages * float64(os.Getpagesize())
}

// rssSample is one reading of the load generator's own RSS and CPU time,
// and of the machine's CPU idle time (/proc/stat; ok false elsewhere).
type rssSample struct {
	at  time.Time
	rss float64
	cpu time.Duration
	// idle and total are the machine's jiffies across all CPUs.
	idle, total float64
	hostOK      bool
	// kids are the child processes' CPU times, in the order of
	// rssSampler.kids, read at the same instant as the generator's own, so
	// the three cover the same span.
	kids []kidCPU
}

// kidCPU is one reading of a child process's CPU time, or why it failed.
type kidCPU struct {
	cpu time.Duration
	err error
}

// kid is a child process the lab started, sampled by PID.
type kid struct {
	proc string // report.ProcAPI or report.ProcStorage
	pid  int
}

// hostCPU reads the machine's idle (idle + iowait) and total jiffies from
// Linux's /proc/stat.
func hostCPU() (idle, total float64, ok bool) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return 0, 0, false
	}
	for i, v := range f[1:] {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, 0, false
		}
		if i >= 8 { // guest time is already counted in user
			break
		}
		total += n
		if i == 3 || i == 4 {
			idle += n
		}
	}
	return idle, total, total > 0
}

// CPUUse is the load generator's CPU over a window: its own process time
// as a share of all the machine's cores, and the machine's idle share.
// Either is nil when it could not be read.
type CPUUse struct {
	Generator, HostIdle *float64
}

// rssSampler records the load generator's RSS and CPU at an interval, so
// its memory is reported apart from the API's (which comes from /metrics),
// and with them the CPU of the child processes in kids.
type rssSampler struct {
	mu      sync.Mutex
	samples []rssSample
	kids    []kid // set before run
}

func (s *rssSampler) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.mu.Lock()
		idle, total, ok := hostCPU()
		smp := rssSample{at: time.Now(), rss: selfRSS(), cpu: processCPU(), idle: idle, total: total, hostOK: ok}
		for _, k := range s.kids {
			cpu, err := pidCPU(k.pid)
			smp.kids = append(smp.kids, kidCPU{cpu, err})
		}
		s.samples = append(s.samples, smp)
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// max returns the highest RSS sampled in [from, to].
func (s *rssSampler) max(from, to time.Time) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m float64
	for _, smp := range s.samples {
		if !smp.at.Before(from) && !smp.at.After(to) {
			m = max(m, smp.rss)
		}
	}
	return m
}

// cpu returns the CPU use between the first and last samples in [from, to].
func (s *rssSampler) cpu(from, to time.Time, cores int) CPUUse {
	s.mu.Lock()
	defer s.mu.Unlock()
	first, last := s.bounds(from, to)
	var u CPUUse
	if first == nil || last == first {
		return u
	}
	if wall := last.at.Sub(first.at).Seconds(); wall > 0 && cores > 0 && last.cpu > 0 {
		g := (last.cpu - first.cpu).Seconds() / wall / float64(cores)
		u.Generator = &g
	}
	if first.hostOK && last.hostOK && last.total > first.total {
		idle := (last.idle - first.idle) / (last.total - first.total)
		u.HostIdle = &idle
	}
	return u
}

// bounds returns the first and last samples in [from, to], nil when none.
// The caller holds s.mu.
func (s *rssSampler) bounds(from, to time.Time) (first, last *rssSample) {
	for i := range s.samples {
		smp := &s.samples[i]
		if smp.at.Before(from) || smp.at.After(to) {
			continue
		}
		if first == nil {
			first = smp
		}
		last = smp
	}
	return first, last
}

// cpuSeconds is a process's CPU time over a window [from, to]: its rate
// between the first and last samples inside the window, times the
// window's length, so it covers the same span as the window's OK count.
// proc is report.ProcGenerator for this process, else a kid's. Nil, with
// why, when it cannot be known.
func (s *rssSampler) cpuSeconds(proc string, from, to time.Time) (secs *float64, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := slices.IndexFunc(s.kids, func(k kid) bool { return k.proc == proc })
	if proc != report.ProcGenerator && k < 0 {
		return nil, "not sampled"
	}
	first, last := s.bounds(from, to)
	if first == nil || last == first || !last.at.After(first.at) {
		return nil, "fewer than two CPU samples in the window"
	}
	wall := last.at.Sub(first.at).Seconds()
	var used time.Duration
	switch {
	case proc == report.ProcGenerator && last.cpu <= 0:
		return nil, "the load generator's own CPU is not read on " + runtime.GOOS
	case proc == report.ProcGenerator:
		used = last.cpu - first.cpu
	case first.kids[k].err != nil:
		return nil, first.kids[k].err.Error()
	case last.kids[k].err != nil:
		return nil, last.kids[k].err.Error()
	default:
		used = last.kids[k].cpu - first.kids[k].cpu
	}
	v := used.Seconds() / wall * to.Sub(from).Seconds()
	return &v, ""
}
