package loadtest

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/aggregate"
	"github.com/syncio/syncio/loadtest/schedule"
)

// progress prints one live line a second: scenario, step, users, request
// rate, 503s, elapsed time and ETA. On a terminal it rewrites the line in
// place; otherwise it prints a line every ten seconds. Rates are averages
// over the last few seconds, not one-second samples.
type progress struct {
	w        io.Writer
	tty      bool
	runStart time.Time
	// remaining is the planned time of the scenarios not yet started.
	remaining []time.Duration
	drainEst  time.Duration

	completed, rejected, ok atomic.Int64

	mu       sync.Mutex
	name     string
	n, total int
	plan     schedule.Plan
	start    time.Time
	stepN    int
	users    int
	status   string
	heads    string // the headlines so far, e.g. "profile 40.0x, upload 1.4x"
	stop     chan struct{}
	stopped  sync.WaitGroup
}

func newProgress(cfg Config) *progress {
	p := &progress{w: cfg.Progress, runStart: time.Now(), total: len(cfg.Scenarios), drainEst: 5 * time.Second}
	for _, sc := range cfg.Scenarios {
		pl, _ := cfg.Profile.Plan(sc.slowSettle())
		p.remaining = append(p.remaining, pl.Duration())
	}
	if p.w == nil {
		return p
	}
	if f, ok := p.w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	p.stop = make(chan struct{})
	p.stopped.Go(p.loop)
	return p
}

func (p *progress) count(r *vegeta.Result) {
	p.completed.Add(1)
	switch aggregate.Classify(r) {
	case aggregate.Rejected:
		p.rejected.Add(1)
	case aggregate.OK:
		p.ok.Add(1)
	}
}

func (p *progress) scenario(name string, n int, plan schedule.Plan, start time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.name, p.n, p.plan, p.start, p.status = name, n, plan, start, ""
	p.stepN, p.users = 0, 0
	p.completed.Store(0)
	p.rejected.Store(0)
	p.ok.Store(0)
}

func (p *progress) step(st schedule.Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stepN, p.users = st.Index, st.Users
}

func (p *progress) headlines(h string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.heads = h
}

func (p *progress) draining() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = "draining server"
}

func (p *progress) loop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	// Rates are averaged over the print interval: a saturated sync pool
	// completes its requests in lockstep batches (every worker finishes at
	// once each backend latency), so a one-second sample mostly reads 0.
	window := rateWindow
	if !p.tty {
		window = printEvery
	}
	var hist rateHistory
	var ticks int
	for {
		select {
		case <-p.stop:
			if p.tty {
				fmt.Fprintln(p.w)
			}
			// A last line, so the headlines of the final pair (computed
			// after its last scenario) appear on the progress output too.
			fmt.Fprintln(p.w, p.finalLine())
			return
		case <-t.C:
		}
		ticks++
		rps, okps := hist.add(p.completed.Load(), p.ok.Load(), window)
		line := p.line(rps, okps)
		if p.tty {
			fmt.Fprintf(p.w, "\r%-130s", line)
		} else if ticks%printEvery == 0 {
			fmt.Fprintln(p.w, line)
		}
	}
}

const (
	rateWindow = 5  // seconds averaged on a terminal
	printEvery = 10 // seconds between lines (and averaged) when not on a terminal
)

// rateHistory keeps one cumulative (completed, ok) sample a second.
type rateHistory struct{ done, ok []int64 }

// add records the current counters and returns the per-second rates over
// the last window seconds (fewer right after a start or a reset).
func (h *rateHistory) add(done, ok int64, window int) (rps, okps float64) {
	if n := len(h.done); n > 0 && (done < h.done[n-1] || ok < h.ok[n-1]) {
		h.done, h.ok = h.done[:0], h.ok[:0] // counters reset by a new scenario
	}
	if len(h.done) == 0 {
		h.done, h.ok = append(h.done, 0), append(h.ok, 0)
	}
	h.done, h.ok = append(h.done, done), append(h.ok, ok)
	if extra := len(h.done) - (window + 1); extra > 0 {
		h.done, h.ok = h.done[extra:], h.ok[extra:]
	}
	secs := float64(len(h.done) - 1)
	return float64(done-h.done[0]) / secs, float64(ok-h.ok[0]) / secs
}

func (p *progress) line(rps, okps float64) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	inScenario := now.Sub(p.start)
	eta := max(p.plan.Duration()-inScenario, 0)
	for i := p.n + 1; i < len(p.remaining); i++ {
		eta += p.remaining[i] + p.drainEst
	}
	steps := len(p.plan.Measured())
	step := fmt.Sprintf("step %d/%d", p.stepN, steps)
	if p.stepN == 0 {
		step = "warm-up"
	}
	status := p.status
	if status == "" {
		status = step
	}
	line := fmt.Sprintf("[%d/%d] %-26s %-12s users %5d  rps %7.1f  ok/s %7.1f  503s %7d  elapsed %-8s ETA %s",
		p.n+1, p.total, p.name, status, p.users, rps, okps, p.rejected.Load(),
		now.Sub(p.runStart).Truncate(time.Second), eta.Truncate(time.Second))
	if p.heads != "" {
		line += "  | " + p.heads
	}
	return line
}

// finalLine is the progress output's last line: the run's length and the
// headlines of the pairs that ran.
func (p *progress) finalLine() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("done: %d scenarios in %s", p.total, time.Since(p.runStart).Truncate(time.Second))
	if p.heads != "" {
		line += "  | " + p.heads
	}
	return line
}

func (p *progress) done() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
}
