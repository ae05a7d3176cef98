package blockwatch

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/pprof/profile"
)

// DefaultRate is the default sampling rate in Hz: enough samples for a
// step of a load run (a few hundred in 10 s) while the process is small.
const DefaultRate = 20

// DefaultBudget is the default share of one core that sampling may take.
// A sample takes under a millisecond with a few hundred goroutines and
// about 9 ms with 8,000 (BenchmarkSample; the runtime formats a key per
// goroutine), so the rate falls below DefaultRate to stay within it: to
// about 5 Hz with hundreds of goroutines, about 1 Hz with thousands.
const DefaultBudget = 0.01

// Option configures a Watcher.
type Option func(*Watcher)

// WithRate sets the sampling rate in Hz (clamped to 1..1000).
func WithRate(hz int) Option {
	return func(w *Watcher) { w.interval = time.Second / time.Duration(min(max(hz, 1), 1000)) }
}

// WithBudget caps the share of one core's time that sampling takes
// (0 < f <= 1): after a sample that took d, the next waits at least d/f.
// Samples are weighted by the time since the previous one, so a lower rate
// makes the figures coarser, not biased.
func WithBudget(f float64) Option {
	return func(w *Watcher) {
		if f > 0 && f <= 1 {
			w.budget = f
		}
	}
}

// WithModule sets the import-path prefix of the service's own code: a
// site is the innermost frame under it. The default is the main module's
// path from the build information.
func WithModule(prefix string) Option {
	return func(w *Watcher) { w.module = strings.TrimSuffix(prefix, "/") }
}

// WithWorker names the resource (as given to Hold) that counts as a
// worker, for holding_worker. The default is "pool".
func WithWorker(name string) Option {
	return func(w *Watcher) { w.worker = name }
}

// WithIgnore sets function-name prefixes of sites that are not I/O but a
// wait the service declares on purpose, such as its own admission queue.
// Their time is counted in Report.IgnoredS, not as sites.
func WithIgnore(prefixes ...string) Option {
	return func(w *Watcher) { w.ignore = append(w.ignore, prefixes...) }
}

// WithLogger sets the logger for sampling errors (default slog.Default).
func WithLogger(l *slog.Logger) Option {
	return func(w *Watcher) { w.log = l }
}

// Watcher samples labelled request goroutines and aggregates where they
// block. Its methods are safe for concurrent use.
type Watcher struct {
	interval time.Duration
	budget   float64
	module   string
	worker   string
	ignore   []string
	log      *slog.Logger

	mu       sync.Mutex
	sites    map[string]*agg // by site key
	watched  time.Duration   // wall time covered by samples
	samples  int64
	sampling time.Duration // time spent taking samples
	request  float64       // request goroutine-seconds
	// blocked and blockedWorker are the sites' totals, kept as they grow
	// so that the counters built on them never step back (a sum over the
	// map in its random order could differ in the last bits).
	blocked, blockedWorker float64
	ignored                float64
	errors                 int64
}

// agg is one site's aggregate: a distinct stack, wait kind and holding set.
type agg struct {
	frames  []Frame
	at      int // index of the blocking frame
	site    int // index of the site frame
	kind    Kind
	holding string
	seconds float64
	routes  map[string]float64
}

// New returns a Watcher; call Run to sample.
func New(opts ...Option) *Watcher {
	w := &Watcher{interval: time.Second / DefaultRate, budget: DefaultBudget, worker: "pool", log: slog.Default(), sites: map[string]*agg{}}
	if bi, ok := debug.ReadBuildInfo(); ok {
		w.module = bi.Main.Path
	}
	for _, o := range opts {
		o(w)
	}
	return w
}

// Run samples at the configured rate, or slower when sampling would take
// more than the budget, until ctx ends. A failed sample is logged and
// counted (Report.Errors), and sampling goes on. Run one at a time: each
// Run weights its samples by its own intervals, so two at once count the
// watched time twice.
func (w *Watcher) Run(ctx context.Context) {
	last := time.Now()
	t := time.NewTimer(w.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// Each sample stands for the time since the previous one, so a
		// slow or late sample does not shrink the totals.
		now := time.Now()
		if err := w.sample(now.Sub(last)); err != nil {
			w.mu.Lock()
			w.errors++
			w.mu.Unlock()
			w.log.Warn("blockwatch: sample failed", "err", err)
		}
		last = now
		cost := time.Since(now)
		t.Reset(max(w.interval, time.Duration(float64(cost)/w.budget)) - cost)
	}
}

// sample takes one goroutine profile and adds it, each goroutine weighted
// by weight.
func (w *Watcher) sample(weight time.Duration) error {
	start := time.Now()
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 0); err != nil {
		return fmt.Errorf("goroutine profile: %w", err)
	}
	p, err := profile.ParseData(buf.Bytes())
	if err != nil {
		return fmt.Errorf("parse goroutine profile: %w", err)
	}
	secs := weight.Seconds()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range p.Sample {
		routes := s.Label[RouteLabel]
		if len(routes) == 0 || len(s.Value) == 0 {
			continue
		}
		fs := frames(s)
		if !w.ownCode(fs) {
			continue
		}
		n := float64(s.Value[0]) * secs
		w.request += n
		kind, at, blocked := classify(fs)
		if !blocked {
			continue
		}
		site := w.siteOf(fs, at)
		if w.skip(fs[site].Func) {
			w.ignored += n
			continue
		}
		var holding string
		if h := s.Label[HoldingLabel]; len(h) > 0 {
			holding = h[0]
		}
		key := stackKey(fs, kind, holding)
		a := w.sites[key]
		if a == nil {
			a = &agg{frames: fs, at: at, site: site, kind: kind, holding: holding, routes: map[string]float64{}}
			w.sites[key] = a
		}
		a.seconds += n
		a.routes[routes[0]] += n
		w.blocked += n
		if w.holdsWorker(holding) {
			w.blockedWorker += n
		}
	}
	w.samples++
	w.watched += weight
	w.sampling += time.Since(start)
	return nil
}

// frames flattens a sample's locations, innermost first (inlined calls
// come before the function they were inlined into).
func frames(s *profile.Sample) []Frame {
	var out []Frame
	for _, l := range s.Location {
		for _, ln := range l.Line {
			if ln.Function == nil {
				continue
			}
			out = append(out, Frame{Func: ln.Function.Name, File: ln.Function.Filename, Line: ln.Line})
		}
	}
	return out
}

// siteOf is the innermost frame in the service's module at or above the
// blocking frame; without one, the blocking frame's caller, or the
// blocking frame itself.
func (w *Watcher) siteOf(fs []Frame, at int) int {
	if w.module != "" {
		for i := at; i < len(fs); i++ {
			if inModule(fs[i].Func, w.module) {
				return i
			}
		}
	}
	if at+1 < len(fs) {
		return at + 1
	}
	return at
}

// ownCode says whether a labelled goroutine runs the service's code. Labels
// pass to every goroutine a request starts, including ones that outlive it
// and are no part of it: an HTTP client's connection read and write loops,
// started when a request dialled, keep that request's labels for the life
// of the connection. Those run library code only.
func (w *Watcher) ownCode(fs []Frame) bool {
	return w.module == "" || slices.ContainsFunc(fs, func(f Frame) bool { return inModule(f.Func, w.module) })
}

func inModule(fn, module string) bool {
	rest, ok := strings.CutPrefix(fn, module)
	return ok && (strings.HasPrefix(rest, "/") || strings.HasPrefix(rest, "."))
}

func (w *Watcher) skip(fn string) bool {
	return slices.ContainsFunc(w.ignore, func(p string) bool { return strings.HasPrefix(fn, p) })
}

func stackKey(fs []Frame, kind Kind, holding string) string {
	var b strings.Builder
	b.WriteString(string(kind))
	b.WriteByte('|')
	b.WriteString(holding)
	for _, f := range fs {
		b.WriteByte('|')
		b.WriteString(f.Func)
		b.WriteByte(':')
		b.WriteString(strconv.FormatInt(f.Line, 10))
	}
	return b.String()
}

// shortName drops the import path before the package name:
// ".../fakes/profile.(*Service).Get" becomes "profile.(*Service).Get".
func shortName(fn string) string {
	end := len(fn)
	if i := strings.IndexAny(fn, "(["); i >= 0 {
		end = i
	}
	if i := strings.LastIndex(fn[:end], "/"); i >= 0 {
		return fn[i+1:]
	}
	return fn
}
