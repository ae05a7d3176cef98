package loadtest

import (
	"sync"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/syncio/syncio/loadtest/aggregate"
	"github.com/syncio/syncio/loadtest/dashboard"
	"github.com/syncio/syncio/loadtest/scrape"
)

// live turns the running scenario's results into one dashboard.Point a
// second for cfg.Live. It counts by completion time, like the windows.
type live struct {
	emit    func(dashboard.Point)
	scraper *scrape.Scraper
	fresh   time.Duration // a /metrics sample older than this is not shown

	mu       sync.Mutex
	active   bool
	scenario string
	step     int
	users    int
	cur      aggregate.Step
	since    time.Time
	// began is the scenario's start: a sample older than it belongs to
	// the previous scenario (or the drain) and is not this one's point.
	began time.Time
	steps int
	// planEnd is when the run's plan ends, for the ETA.
	planEnd time.Time
	// prev is the sample the watcher's figure is taken from, the last one
	// used unless too few watcher samples have been taken since.
	prev *scrape.Sample

	stop    chan struct{}
	stopped sync.WaitGroup
}

// newLive starts the one-second loop, or returns nil when nobody listens.
func newLive(cfg Config, scraper *scrape.Scraper) *live {
	if cfg.Live == nil {
		return nil
	}
	l := &live{emit: cfg.Live, stop: make(chan struct{})}
	if cfg.ScrapeInterval > 0 && !cfg.NoMetrics {
		l.scraper, l.fresh = scraper, 2*cfg.ScrapeInterval+time.Second
	}
	l.stopped.Go(l.loop)
	return l
}

func (l *live) begin(name string, steps int, end time.Time) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.active, l.scenario, l.step, l.users = true, name, 0, 0
	l.cur, l.since = aggregate.Step{}, time.Now()
	l.began, l.steps, l.planEnd, l.prev = l.since, steps, end, nil
}

func (l *live) setStep(index, users int) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.step, l.users = index, users
}

func (l *live) add(r *vegeta.Result) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cur.Add(r)
}

// end emits the scenario's last part-second, unless it is too short for
// its rates to mean anything, and stops emitting until the next begin (the
// drain between scenarios is not a scenario's time).
func (l *live) end() {
	if l == nil {
		return
	}
	l.mu.Lock()
	short := time.Since(l.since) < minPart
	l.mu.Unlock()
	if p, ok := l.take(time.Now()); ok && !short {
		l.emit(p)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.active = false
}

// minPart is the shortest last part-second end still emits.
const minPart = 300 * time.Millisecond

func (l *live) loop() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case now := <-t.C:
			if p, ok := l.take(now); ok {
				l.emit(p)
			}
		}
	}
}

// take closes the current second and returns its point.
func (l *live) take(now time.Time) (dashboard.Point, bool) {
	l.mu.Lock()
	if !l.active || now.Sub(l.since) <= 0 {
		l.mu.Unlock()
		return dashboard.Point{}, false
	}
	st := l.cur.Stats(now.Sub(l.since))
	p := dashboard.Point{Time: now, Scenario: l.scenario, Step: l.step, Users: l.users,
		OKPerS: st.ThroughputRPS, Status503PerS: st.RejectedRPS}
	if st.OK > 0 {
		p.LatencyP50S, p.LatencyP99S = &st.P50, &st.P99
	}
	if secs := now.Sub(l.since).Seconds(); secs > 0 {
		p.ErrorsPerS = float64(st.Errors+st.Timeouts) / secs
	}
	p.Steps, p.ETAS = l.steps, max(l.planEnd.Sub(now).Seconds(), 0)
	l.cur, l.since = aggregate.Step{}, now
	began, prev := l.began, l.prev
	l.mu.Unlock()
	if l.scraper != nil {
		if smp, ok := l.scraper.Last(); ok && now.Sub(smp.Time) < l.fresh && !smp.Time.Before(began) {
			p.ServerAt = &smp.Time
			if smp.Has(scrape.RoleWorkers) {
				p.Workers = &smp.Workers
			}
			// While the watcher's samples since prev are too few for a
			// figure, prev stays, and the next point's window is longer.
			enough := true
			if prev != nil {
				b := aggregate.BlockedBetween(*prev, smp)
				p.BlockedHoldingWorker, enough = b.Mean, b.Missing == ""
			}
			if enough && (prev == nil || smp.Time.After(prev.Time)) {
				l.mu.Lock()
				l.prev = &smp
				l.mu.Unlock()
			}
			if smp.Has(scrape.RoleQueue) {
				p.QueueLength = &smp.QueueLength
			}
			if smp.Has(scrape.RoleBusy) {
				p.WorkersBusy = &smp.WorkersBusy
			}
		}
	}
	return p, true
}

func (l *live) close() {
	if l == nil {
		return
	}
	close(l.stop)
	l.stopped.Wait()
}
