package blockwatch

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Frame is one call of a stack.
type Frame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line int64  `json:"line"`
}

func (f Frame) String() string { return fmt.Sprintf("%s %s:%d", f.Func, f.File, f.Line) }

// Report is a Watcher's aggregate since it started. Times are
// goroutine-seconds: two requests blocked for one second make 2.
type Report struct {
	// Module is the first own-code prefix (the main module's path by
	// default); OwnCode lists them all, package main included.
	Module  string   `json:"module"`
	OwnCode []string `json:"own_code"`
	RateHz  float64  `json:"rate_hz"` // configured; the budget may lower it
	Samples int64    `json:"samples"` // Samples/WatchedS is the rate achieved
	// WatchedS is the wall time the samples cover, and SamplingS the part
	// of it spent taking them (the watcher's own cost, on one goroutine).
	// SamplingCPUS is their cost as the budget counts it: the sampling
	// thread's CPU time when BudgetClock is "thread_cpu", the wall time
	// when it is "wall". BudgetLimited counts the samples after which the
	// budget, not the rate, set the wait.
	WatchedS      float64 `json:"watched_s"`
	SamplingS     float64 `json:"sampling_s"`
	SamplingCPUS  float64 `json:"sampling_cpu_s"`
	BudgetClock   string  `json:"budget_clock,omitempty"`
	BudgetLimited int64   `json:"budget_limited"`
	Errors        int64   `json:"errors"`
	// RequestS is the time request goroutines were seen running own code,
	// running or not; BlockedS the part of it spent parked at a site, and
	// BlockedHoldingWorkerS the part of that spent holding a worker.
	// IgnoredS is the time in waits excluded by WithIgnore.
	RequestS              float64 `json:"request_s"`
	BlockedS              float64 `json:"blocked_s"`
	BlockedHoldingWorkerS float64 `json:"blocked_holding_worker_s"`
	IgnoredS              float64 `json:"ignored_s"`
	// OutsideOwnCodeS is the time of labelled goroutines with no frame in
	// own code, not counted as requests: an HTTP client's connection loops
	// that inherited a request's labels, or, when RequestS is 0, a filter
	// (OwnCode) that misses the service's handlers.
	OutsideOwnCodeS float64 `json:"outside_own_code_s"`
	// Warnings say, in words, what makes the figures wrong or missing:
	// requests seen but no own code, too few samples, failed samples.
	Warnings []string `json:"warnings,omitempty"`
	// Routes, most blocked first: each route's request time, the
	// denominator of its shares.
	Routes []Route `json:"routes"`
	// Sites, most blocked first.
	Sites []Site `json:"sites"`
	// Lines is the request time at each own-code line ("file:line"),
	// running or parked: what the load exercised. A line absent from it
	// was not seen run at all, which a reader of Sites alone cannot tell
	// from run and never blocked.
	Lines map[string]float64 `json:"lines,omitempty"`
	// WindowS is the windows' length, MinSamples the fewest samples a
	// window needs for figures; Windows are the last hour's, oldest first.
	WindowS    float64  `json:"window_s"`
	MinSamples int      `json:"min_samples"`
	Windows    []Window `json:"windows"`
}

// Route is one route's time: all of it, and the part holding a worker (its
// slot time), with what of each was spent blocked.
type Route struct {
	Route          string  `json:"route"`
	RequestS       float64 `json:"request_s"`
	HoldingWorkerS float64 `json:"holding_worker_s"` // running or parked
	BlockedS       float64 `json:"blocked_s"`
	// BlockedHoldingWorkerS is the blocked time spent holding a worker.
	BlockedHoldingWorkerS float64 `json:"blocked_holding_worker_s"`
	Share                 float64 `json:"share"` // BlockedS / RequestS
	// SlotShare is BlockedHoldingWorkerS / HoldingWorkerS: how much of the
	// time this route held a worker it spent blocked. Nil when the route
	// never held one.
	SlotShare *float64 `json:"slot_share"`
	// Samples is how many samples saw the route. ShareMargin and
	// SlotShareMargin are the half-widths of their shares' 95% intervals
	// (0.05 is ±5 points), from how the per-sample figures spread; nil
	// below two samples. A share read from few samples of a wait that
	// comes and goes (a lock released to all its waiters at once) can be
	// many points off: the margin says how many.
	Samples         int64    `json:"samples"`
	ShareMargin     *float64 `json:"share_margin"`
	SlotShareMargin *float64 `json:"slot_share_margin"`
	// Kinds splits BlockedS by kind of wait, most first, each with its
	// share of the route's request time and that share's margin.
	Kinds []KindShare `json:"kinds,omitempty"`
}

// KindShare is a route's blocked time in one kind of wait.
type KindShare struct {
	Kind     Kind     `json:"kind"`
	BlockedS float64  `json:"blocked_s"`
	Share    float64  `json:"share"`
	Margin   *float64 `json:"margin"`
}

// Window is one stretch of the run. Its figures are nil, and Reason says
// why, when it has fewer than Report.MinSamples samples.
type Window struct {
	Start                 time.Time `json:"start"`
	End                   time.Time `json:"end"`
	Samples               int64     `json:"samples"`
	RequestS              *float64  `json:"request_s"`
	BlockedS              *float64  `json:"blocked_s"`
	BlockedHoldingWorkerS *float64  `json:"blocked_holding_worker_s"`
	Reason                string    `json:"reason,omitempty"`
}

// Site is one place request goroutines were parked: a distinct stack, with
// what it waited on and what it held.
type Site struct {
	// Site is the innermost own-code frame, short form (pkg.(*T).Method);
	// Func is its full name.
	Site     string `json:"site"`
	Func     string `json:"func"`
	Blocking string `json:"blocking"` // the frame that identifies the wait
	Kind     Kind   `json:"kind"`
	Holding  string `json:"holding"` // resources held, comma-separated
	// HoldingWorker says whether the worker resource (WithWorker) was held.
	HoldingWorker bool    `json:"holding_worker"`
	BlockedS      float64 `json:"blocked_s"`
	Share         float64 `json:"share"` // of Report.RequestS
	// Routes is the blocked time by route; RouteShares the same over each
	// route's request time (Report.Routes).
	Routes      map[string]float64 `json:"routes"`
	RouteShares map[string]float64 `json:"route_shares"`
	// RouteShareMargins are the half-widths of RouteShares' 95% intervals
	// (as Route.ShareMargin), absent for a route with under two samples.
	RouteShareMargins map[string]float64 `json:"route_share_margins,omitempty"`
	Stack             []string           `json:"stack"` // innermost first
	Frames            []Frame            `json:"frames"`
}

// Totals are a Report's running sums, without the sites: cheap enough to
// read on every metrics scrape.
type Totals struct {
	RequestS, BlockedS, BlockedHoldingWorkerS float64
	// Samples is the number of samples taken, so that a reader of the
	// sums over a window can tell how many samples they rest on.
	Samples int64
	// WatchedS is the wall time the samples stand for (each weighted by
	// the time since the one before): a seconds sum's increase over a
	// window divided by this one's is the mean number of goroutines over
	// the samples taken in it, however sparse sampling was.
	WatchedS float64
	// SamplingCPUS is the sampling's cost as the budget counts it.
	SamplingCPUS float64
	// NoOwnCode says, in words, that labelled requests ran but none ran
	// own code, so the sums' zeros mean "not seen", not "not blocked";
	// it is empty otherwise.
	NoOwnCode string
	// Routes are the per-route sums.
	Routes map[string]Route
}

// Totals returns the running sums so far.
func (w *Watcher) Totals() Totals {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := Totals{
		RequestS: w.request, BlockedS: w.blocked, BlockedHoldingWorkerS: w.blockedWorker,
		Samples: w.samples, WatchedS: w.watched.Seconds(), SamplingCPUS: w.samplingCPU.Seconds(), NoOwnCode: w.noOwnCode(),
		Routes: make(map[string]Route, len(w.routes)),
	}
	for name, r := range w.routes {
		t.Routes[name] = r.report(name)
	}
	return t
}

// noOwnCode is the warning for labelled requests that never ran own code,
// or "". w.mu must be held.
func (w *Watcher) noOwnCode() string {
	if w.request > 0 || w.outside == 0 {
		return ""
	}
	return fmt.Sprintf("labelled requests ran (%.1f goroutine-seconds seen) but no frame of theirs matched the own-code filter %s, "+
		"so nothing was counted: name your handlers' import path with blockwatch.WithModule",
		w.outside, strings.Join(quoteAll(w.ownCodeFilter()), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

func (r *routeAgg) report(name string) Route {
	out := Route{
		Route: name, RequestS: r.request, HoldingWorkerS: r.holdingWorker,
		BlockedS: r.blocked, BlockedHoldingWorkerS: r.blockedWorker,
	}
	if r.request > 0 {
		out.Share = r.blocked / r.request
	}
	if r.holdingWorker > 0 {
		s := r.blockedWorker / r.holdingWorker
		out.SlotShare = &s
		out.SlotShareMargin = r.slot.marginPtr()
	}
	out.Samples, out.ShareMargin = r.share.n, r.share.marginPtr()
	for k, ka := range r.kinds {
		ks := KindShare{Kind: k, BlockedS: ka.blocked, Margin: ka.share.marginPtr()}
		if r.request > 0 {
			ks.Share = ka.blocked / r.request
		}
		out.Kinds = append(out.Kinds, ks)
	}
	slices.SortFunc(out.Kinds, func(a, b KindShare) int {
		return cmp.Or(cmp.Compare(b.BlockedS, a.BlockedS), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}

func (w *Watcher) holdsWorker(holding string) bool {
	return holding != "" && slices.Contains(names(holding), w.worker)
}

// Report returns the aggregate so far.
func (w *Watcher) Report() Report {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := Report{
		OwnCode:       w.ownCodeFilter(),
		RateHz:        float64(time.Second) / float64(w.interval),
		Samples:       w.samples,
		WatchedS:      w.watched.Seconds(),
		SamplingS:     w.sampling.Seconds(),
		SamplingCPUS:  w.samplingCPU.Seconds(),
		BudgetLimited: w.budgetWaits,
		Errors:        w.errors,
		RequestS:      w.request,
		IgnoredS:      w.ignored,

		BlockedS:              w.blocked,
		BlockedHoldingWorkerS: w.blockedWorker,
		OutsideOwnCodeS:       w.outside,
		Routes:                []Route{},
		Sites:                 []Site{},
		WindowS:               w.window.Seconds(),
		MinSamples:            w.minSamples,
		Windows:               []Window{},
	}
	r.Module = r.OwnCode[0]
	if w.samplingCPU > 0 {
		r.BudgetClock = "wall"
		if w.cpuClock {
			r.BudgetClock = "thread_cpu"
		}
	}
	r.Warnings = w.warnings()
	for name, ra := range w.routes {
		r.Routes = append(r.Routes, ra.report(name))
	}
	slices.SortFunc(r.Routes, func(a, b Route) int {
		return cmp.Or(cmp.Compare(b.BlockedS, a.BlockedS), strings.Compare(a.Route, b.Route))
	})
	r.Lines = make(map[string]float64, len(w.lines))
	for k, secs := range w.lines {
		r.Lines[k.file+":"+strconv.FormatInt(k.line, 10)] = secs
	}
	for key, a := range w.sites {
		s := Site{
			Site:          shortName(a.frames[a.site].Func),
			Func:          a.frames[a.site].Func,
			Blocking:      a.frames[a.at].Func,
			Kind:          a.kind,
			Holding:       a.holding,
			HoldingWorker: w.holdsWorker(a.holding),
			BlockedS:      a.seconds,
			Routes:        maps.Clone(a.routes),
			RouteShares:   make(map[string]float64, len(a.routes)),
			Frames:        slices.Clone(a.frames),
		}
		if w.request > 0 {
			s.Share = a.seconds / w.request
		}
		for route, secs := range a.routes {
			ra := w.routes[route]
			if ra.request > 0 {
				s.RouteShares[route] = secs / ra.request
			}
			if pa := ra.sites[key]; pa != nil {
				if m, ok := pa.share.margin(); ok {
					if s.RouteShareMargins == nil {
						s.RouteShareMargins = map[string]float64{}
					}
					s.RouteShareMargins[route] = m
				}
			}
		}
		for _, f := range a.frames {
			s.Stack = append(s.Stack, f.String())
		}
		r.Sites = append(r.Sites, s)
	}
	slices.SortFunc(r.Sites, func(a, b Site) int {
		return cmp.Or(cmp.Compare(b.BlockedS, a.BlockedS), strings.Compare(a.Func, b.Func),
			strings.Compare(strings.Join(a.Stack, "\n"), strings.Join(b.Stack, "\n")))
	})
	r.Windows = w.reportWindows()
	return r
}

// warnings says what makes the report's figures wrong or missing. w.mu
// must be held.
func (w *Watcher) warnings() []string {
	var out []string
	if s := w.noOwnCode(); s != "" {
		out = append(out, s)
	}
	if w.samples < int64(w.minSamples) {
		out = append(out, fmt.Sprintf("%d samples in all, under the minimum of %d for a figure: the totals rest on too few samples to trust", w.samples, w.minSamples))
	}
	if w.errors > 0 {
		out = append(out, fmt.Sprintf("%d samples failed (see the log); the time they stood for is not counted", w.errors))
	}
	return out
}

// reportWindows returns the windows from the first to the last sampled,
// the empty ones between included: a stretch with no sample is shown as
// such, not skipped. w.mu must be held.
func (w *Watcher) reportWindows() []Window {
	out := []Window{}
	if len(w.windows) == 0 {
		return out
	}
	next := 0
	for start := w.windows[0].start; !start.After(w.windows[len(w.windows)-1].start); start = start.Add(w.window) {
		win := &windowAgg{start: start}
		if next < len(w.windows) && w.windows[next].start.Equal(start) {
			win = w.windows[next]
			next++
		}
		out = append(out, w.reportWindow(win))
	}
	return out
}

func (w *Watcher) reportWindow(win *windowAgg) Window {
	out := Window{Start: win.start, End: win.start.Add(w.window), Samples: win.samples}
	if win.samples >= int64(w.minSamples) {
		// Copies: the window may still be growing after the report is made.
		req, blocked, worker := win.request, win.blocked, win.blockedWorker
		out.RequestS, out.BlockedS, out.BlockedHoldingWorkerS = &req, &blocked, &worker
		return out
	}
	hz := float64(win.samples) / w.window.Seconds()
	out.Reason = fmt.Sprintf("%d samples in this %s window, under the minimum of %d for a figure: sampling ran at %.1f Hz of the %.0f Hz asked",
		win.samples, w.window, w.minSamples, hz, float64(time.Second)/float64(w.interval))
	switch {
	case win.samples == 0:
		out.Reason += "; the watcher did not sample in it (not running, or the process starved of CPU)"
	case win.budgetWaits > 0:
		out.Reason += fmt.Sprintf("; the CPU budget (%.3g of a core, WithBudget) spaced the samples: raise it, or lower the rate", w.budget)
	default:
		out.Reason += "; the process was too busy to sample on time"
	}
	return out
}

// Profile converts r to a pprof profile: one sample per site and route,
// valued in blocked nanoseconds, labelled with kind, holding and route.
func (r Report) Profile() *profile.Profile {
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "blocked", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "wall", Unit: "nanoseconds"},
		DurationNanos: int64(r.WatchedS * 1e9),
	}
	if r.RateHz > 0 {
		p.Period = int64(1e9 / r.RateHz)
	}
	funcs := map[[2]string]*profile.Function{}
	locs := map[Frame]*profile.Location{}
	for _, s := range r.Sites {
		var stack []*profile.Location
		for _, f := range s.Frames {
			loc := locs[f]
			if loc == nil {
				fn := funcs[[2]string{f.Func, f.File}]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(funcs) + 1), Name: f.Func, SystemName: f.Func, Filename: f.File}
					funcs[[2]string{f.Func, f.File}] = fn
					p.Function = append(p.Function, fn)
				}
				loc = &profile.Location{ID: uint64(len(locs) + 1), Line: []profile.Line{{Function: fn, Line: f.Line}}}
				locs[f] = loc
				p.Location = append(p.Location, loc)
			}
			stack = append(stack, loc)
		}
		for _, route := range slices.Sorted(maps.Keys(s.Routes)) {
			p.Sample = append(p.Sample, &profile.Sample{
				Location: stack,
				Value:    []int64{int64(s.Routes[route] * 1e9)},
				Label: map[string][]string{
					"kind": {string(s.Kind)}, "holding": {cmp.Or(s.Holding, "none")}, "route": {route},
				},
			})
		}
	}
	return p
}

// WriteProfile writes r in pprof's gzipped protocol buffer format.
func (r Report) WriteProfile(w io.Writer) error {
	if err := r.Profile().Write(w); err != nil {
		return fmt.Errorf("write blocking profile: %w", err)
	}
	return nil
}
