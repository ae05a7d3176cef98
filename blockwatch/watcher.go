package blockwatch

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"runtime"
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

// DefaultBudget is the default share of one core's CPU time that sampling
// may take. What a sample costs grows with the number of goroutines (the
// runtime formats a key per goroutine, and the profile is parsed), so the
// rate falls below DefaultRate to stay within it; BenchmarkSample has the
// cost per sample, and docs/blockwatch.md the figures measured.
const DefaultBudget = 0.01

// DefaultWindow is the default length of the report's windows, and
// DefaultMinSamples the fewest samples a window needs for its figures to
// be shown: with fewer, each sample stands for a long stretch, and a
// window's total can land in its neighbour's (a window of 20 slots read 38
// blocked at 1 Hz).
const (
	DefaultWindow     = 10 * time.Second
	DefaultMinSamples = 10
)

// maxWindows bounds the report's windows: an hour of the default window.
const maxWindows = 360

// MainPackage is the own-code prefix that every Watcher has besides its
// module: functions of a program's package main are named "main.handler"
// or "main.(*server).held" in profiles, whatever the module's path, and
// small services keep their handlers there.
const MainPackage = "main"

// Option configures a Watcher.
type Option func(*Watcher)

// WithRate sets the sampling rate in Hz (clamped to 1..1000).
func WithRate(hz int) Option {
	return func(w *Watcher) { w.interval = time.Second / time.Duration(min(max(hz, 1), 1000)) }
}

// WithBudget caps the share of one core's CPU time that sampling takes
// (0 < f <= 1): after a sample that took c of CPU time, the next waits at
// least c/f. The cost is the sampling thread's CPU time, not the wall time,
// so that a busy machine, which makes a sample take longer without making
// it cost more, does not slow sampling down. (Where the thread's CPU time
// cannot be read, outside Linux, it is the wall time: Report.BudgetClock
// says which.) Samples are weighted by the time since the previous one, so
// a lower rate makes the figures coarser, not biased.
func WithBudget(f float64) Option {
	return func(w *Watcher) {
		if f > 0 && f <= 1 {
			w.budget = f
		}
	}
}

// WithModule sets the import-path prefixes of the service's own code, in
// place of the default, the main module's path from the build information
// (useful when the handlers live in another module, such as a library the
// service imports). A labelled goroutine counts as a request only while a
// frame of its stack is own code, and a site is the innermost own-code
// frame. Package main (MainPackage) is always own code.
func WithModule(prefixes ...string) Option {
	return func(w *Watcher) {
		w.modules = w.modules[:0]
		for _, p := range prefixes {
			if p = strings.TrimSuffix(p, "/"); p != "" {
				w.modules = append(w.modules, p)
			}
		}
	}
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

// WithWindow sets the length of the report's windows (default
// DefaultWindow, at least one second), and minSamples the fewest samples
// a window needs for its figures to be shown (default DefaultMinSamples);
// a window with fewer shows none, and says why.
func WithWindow(d time.Duration, minSamples int) Option {
	return func(w *Watcher) {
		w.window = max(d, time.Second)
		w.minSamples = max(minSamples, 1)
	}
}

// WithLogger sets the logger for sampling errors (default slog.Default).
func WithLogger(l *slog.Logger) Option {
	return func(w *Watcher) { w.log = l }
}

// Watcher samples labelled request goroutines and aggregates where they
// block. Its methods are safe for concurrent use.
type Watcher struct {
	interval   time.Duration
	budget     float64
	modules    []string // own code, besides MainPackage
	worker     string
	ignore     []string
	log        *slog.Logger
	window     time.Duration
	minSamples int

	mu      sync.Mutex
	sites   map[string]*agg      // by site key
	lines   map[lineKey]float64  // request time at each own-code line
	routes  map[string]*routeAgg // by route label
	windows []*windowAgg         // oldest first, at most maxWindows
	watched time.Duration        // wall time covered by samples
	samples int64
	// sampling is the wall time spent taking samples, samplingCPU their
	// cost as the budget counts it (cpuClock says whether that is the
	// sampling thread's CPU time), and budgetWaits the samples after which
	// the budget, not the rate, set the wait.
	sampling, samplingCPU time.Duration
	cpuClock              bool
	budgetWaits           int64
	request               float64 // request goroutine-seconds
	// blocked and blockedWorker are the sites' totals, kept as they grow
	// so that the counters built on them never step back (a sum over the
	// map in its random order could differ in the last bits).
	blocked, blockedWorker float64
	ignored                float64
	// outside is the labelled goroutine-seconds with no own-code frame:
	// connection loops that inherited a request's labels, or, when it is
	// all there is, a module filter that misses the service's handlers.
	outside float64
	errors  int64
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

// routeAgg is one route's running sums, the denominators of its shares,
// and per sample the sums their margins need: of its share, of its slot
// share, and of its share by kind of wait.
type routeAgg struct {
	request, holdingWorker, blocked, blockedWorker float64
	share, slot                                    ratio
	kinds                                          map[Kind]*partAgg
	// sites are the route's blocked time by site (stackKey), so that a
	// site's share of the route has a margin of its own.
	sites map[string]*partAgg
}

// lineKey is a source line.
type lineKey struct {
	file string
	line int64
}

// partAgg is a route's blocked time in one part of its waits: a kind of
// wait, or a site.
type partAgg struct {
	blocked float64
	share   ratio
}

// tally is one route's time in one sample.
type tally struct {
	request, holdingWorker, blocked, blockedWorker float64
	kinds                                          map[Kind]float64
	sites                                          map[string]float64
}

// fold adds one sample's tally t to the route's margins. Every kind and
// site the route has been seen blocked in gets a term, 0 when this sample
// saw none of it, so that a part's share is over all the samples of the
// route.
func (r *routeAgg) fold(t *tally) {
	r.share.add(t.blocked, t.request)
	if t.holdingWorker > 0 {
		r.slot.add(t.blockedWorker, t.holdingWorker)
	}
	foldParts(&r.kinds, t.kinds, r.share, t.request)
	foldParts(&r.sites, t.sites, r.share, t.request)
}

// foldParts adds one sample's blocked time by part (seen) to the parts'
// margins; share is the route's, already holding this sample.
func foldParts[K comparable](parts *map[K]*partAgg, seen map[K]float64, share ratio, request float64) {
	for k, secs := range seen {
		if *parts == nil {
			*parts = map[K]*partAgg{}
		}
		if (*parts)[k] == nil {
			// A part first seen now had 0 in the route's earlier samples.
			(*parts)[k] = &partAgg{share: ratio{n: share.n - 1, r: share.r - request, rr: share.rr - request*request}}
		}
		(*parts)[k].blocked += secs
	}
	for k, pa := range *parts {
		pa.share.add(seen[k], request)
	}
}

// windowAgg is one window's running sums.
type windowAgg struct {
	start                           time.Time
	samples, budgetWaits            int64
	request, blocked, blockedWorker float64
}

// New returns a Watcher; call Run to sample.
func New(opts ...Option) *Watcher {
	w := &Watcher{
		interval: time.Second / DefaultRate, budget: DefaultBudget, worker: "pool", log: slog.Default(),
		window: DefaultWindow, minSamples: DefaultMinSamples,
		sites: map[string]*agg{}, routes: map[string]*routeAgg{}, lines: map[lineKey]float64{},
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path != "" {
		w.modules = []string{bi.Main.Path}
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
		cost, err := w.timedSample(now, now.Sub(last))
		if err != nil {
			w.mu.Lock()
			w.errors++
			w.mu.Unlock()
			w.log.Warn("blockwatch: sample failed", "err", err)
		}
		last = now
		wait := w.interval
		if b := time.Duration(float64(cost) / w.budget); b > wait {
			wait = b
		}
		// The budget held the next sample back only if its wait outlasts
		// the sample itself: on a starved process a sample can take longer
		// in wall time than the budget asks to wait after it.
		if wait > w.interval && wait > time.Since(now) {
			w.mu.Lock()
			w.budgetWaits++
			if n := len(w.windows); n > 0 {
				w.windows[n-1].budgetWaits++
			}
			w.mu.Unlock()
		}
		t.Reset(wait - time.Since(now))
	}
}

// timedSample takes a sample and returns its cost for the budget: the CPU
// time of the thread it ran on (the goroutine is locked to it meanwhile),
// or, where that cannot be read, the wall time.
func (w *Watcher) timedSample(at time.Time, weight time.Duration) (time.Duration, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := threadCPU()
	err := w.sampleAt(at, weight)
	cost := time.Since(at)
	if ok {
		if c1, ok1 := threadCPU(); ok1 {
			cost = c1 - c0
		} else {
			ok = false
		}
	}
	w.mu.Lock()
	w.samplingCPU += cost
	w.cpuClock = ok
	w.mu.Unlock()
	return cost, err
}

// sample takes one goroutine profile and adds it, each goroutine weighted
// by weight.
func (w *Watcher) sample(weight time.Duration) error { return w.sampleAt(time.Now(), weight) }

func (w *Watcher) sampleAt(at time.Time, weight time.Duration) error {
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
	win := w.windowAt(at)
	tallies := map[*routeAgg]*tally{}
	defer func() {
		for r, t := range tallies {
			r.fold(t)
		}
	}()
	for _, s := range p.Sample {
		routes := s.Label[RouteLabel]
		if len(routes) == 0 || len(s.Value) == 0 {
			continue
		}
		n := float64(s.Value[0]) * secs
		fs := frames(s)
		if !w.ownCode(fs) {
			w.outside += n
			continue
		}
		route := w.routes[routes[0]]
		if route == nil {
			route = &routeAgg{}
			w.routes[routes[0]] = route
		}
		var holding string
		if h := s.Label[HoldingLabel]; len(h) > 0 {
			holding = h[0]
		}
		worker := w.holdsWorker(holding)
		t := tallies[route]
		if t == nil {
			t = &tally{}
			tallies[route] = t
		}
		w.request += n
		win.request += n
		route.request += n
		t.request += n
		// Every own-code line the request was at, running or parked: a
		// finding whose line no sample saw was not exercised, which is
		// not the same as exercised and never blocked.
		for _, f := range fs {
			if w.own(f.Func) {
				w.lines[lineKey{f.File, f.Line}] += n
			}
		}
		if worker {
			route.holdingWorker += n
			t.holdingWorker += n
		}
		kind, bi, blocked := classify(fs)
		if !blocked {
			continue
		}
		site := w.siteOf(fs, bi)
		if w.skip(fs[site].Func) {
			w.ignored += n
			continue
		}
		key := stackKey(fs, kind, holding)
		a := w.sites[key]
		if a == nil {
			a = &agg{frames: fs, at: bi, site: site, kind: kind, holding: holding, routes: map[string]float64{}}
			w.sites[key] = a
		}
		a.seconds += n
		a.routes[routes[0]] += n
		w.blocked += n
		win.blocked += n
		route.blocked += n
		t.blocked += n
		if t.kinds == nil {
			t.kinds = map[Kind]float64{}
		}
		t.kinds[kind] += n
		if t.sites == nil {
			t.sites = map[string]float64{}
		}
		t.sites[key] += n
		if worker {
			w.blockedWorker += n
			win.blockedWorker += n
			route.blockedWorker += n
			t.blockedWorker += n
		}
	}
	w.samples++
	win.samples++
	w.watched += weight
	w.sampling += time.Since(at)
	return nil
}

// windowAt returns the window that a sample taken at t falls in, opening
// it (and closing the oldest beyond maxWindows) if it is new. Windows are
// aligned to multiples of the window length, so that two reports of one
// process line up. w.mu must be held.
func (w *Watcher) windowAt(t time.Time) *windowAgg {
	start := t.Truncate(w.window)
	if n := len(w.windows); n > 0 && !w.windows[n-1].start.Before(start) {
		return w.windows[n-1] // the same window, or a concurrent Run a little behind
	}
	win := &windowAgg{start: start}
	w.windows = append(w.windows, win)
	if len(w.windows) > maxWindows {
		w.windows = slices.Delete(w.windows, 0, len(w.windows)-maxWindows)
	}
	return win
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

// siteOf is the innermost own-code frame at or above the blocking frame;
// without one, the blocking frame's caller, or the blocking frame itself.
func (w *Watcher) siteOf(fs []Frame, at int) int {
	for i := at; i < len(fs); i++ {
		if w.own(fs[i].Func) {
			return i
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
	return slices.ContainsFunc(fs, func(f Frame) bool { return w.own(f.Func) })
}

func (w *Watcher) own(fn string) bool {
	return inModule(fn, MainPackage) || slices.ContainsFunc(w.modules, func(m string) bool { return inModule(fn, m) })
}

// ownCodeFilter names the prefixes own code is recognised by, for reports.
func (w *Watcher) ownCodeFilter() []string {
	return append(slices.Clone(w.modules), MainPackage)
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
