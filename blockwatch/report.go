package blockwatch

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
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
	Module  string  `json:"module"`
	RateHz  float64 `json:"rate_hz"` // configured; the budget may lower it
	Samples int64   `json:"samples"` // Samples/WatchedS is the rate achieved
	// WatchedS is the wall time the samples cover, and SamplingS the part
	// of it spent taking them (the watcher's own cost, on one goroutine).
	WatchedS  float64 `json:"watched_s"`
	SamplingS float64 `json:"sampling_s"`
	Errors    int64   `json:"errors"`
	// RequestS is the time request goroutines were seen, running or not;
	// BlockedS the part of it spent parked at a site, and
	// BlockedHoldingWorkerS the part of that spent holding a worker.
	// IgnoredS is the time in waits excluded by WithIgnore.
	RequestS              float64 `json:"request_s"`
	BlockedS              float64 `json:"blocked_s"`
	BlockedHoldingWorkerS float64 `json:"blocked_holding_worker_s"`
	IgnoredS              float64 `json:"ignored_s"`
	// Sites, most blocked first.
	Sites []Site `json:"sites"`
}

// Site is one place request goroutines were parked: a distinct stack, with
// what it waited on and what it held.
type Site struct {
	// Site is the innermost frame in the service's module, short form
	// (pkg.(*T).Method); Func is its full name.
	Site     string `json:"site"`
	Func     string `json:"func"`
	Blocking string `json:"blocking"` // the frame that identifies the wait
	Kind     Kind   `json:"kind"`
	Holding  string `json:"holding"` // resources held, comma-separated
	// HoldingWorker says whether the worker resource (WithWorker) was held.
	HoldingWorker bool               `json:"holding_worker"`
	BlockedS      float64            `json:"blocked_s"`
	Share         float64            `json:"share"` // of Report.RequestS
	Routes        map[string]float64 `json:"routes"`
	Stack         []string           `json:"stack"` // innermost first
	Frames        []Frame            `json:"frames"`
}

// Totals are a Report's running sums, without the sites: cheap enough to
// read on every metrics scrape.
type Totals struct {
	RequestS, BlockedS, BlockedHoldingWorkerS float64
}

// Totals returns the running sums so far.
func (w *Watcher) Totals() Totals {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Totals{RequestS: w.request, BlockedS: w.blocked, BlockedHoldingWorkerS: w.blockedWorker}
}

func (w *Watcher) holdsWorker(holding string) bool {
	return holding != "" && slices.Contains(names(holding), w.worker)
}

// Report returns the aggregate so far.
func (w *Watcher) Report() Report {
	w.mu.Lock()
	defer w.mu.Unlock()
	r := Report{
		Module:    w.module,
		RateHz:    float64(time.Second) / float64(w.interval),
		Samples:   w.samples,
		WatchedS:  w.watched.Seconds(),
		SamplingS: w.sampling.Seconds(),
		Errors:    w.errors,
		RequestS:  w.request,
		IgnoredS:  w.ignored,

		BlockedS:              w.blocked,
		BlockedHoldingWorkerS: w.blockedWorker,
		Sites:                 []Site{},
	}
	for _, a := range w.sites {
		s := Site{
			Site:          shortName(a.frames[a.site].Func),
			Func:          a.frames[a.site].Func,
			Blocking:      a.frames[a.at].Func,
			Kind:          a.kind,
			Holding:       a.holding,
			HoldingWorker: w.holdsWorker(a.holding),
			BlockedS:      a.seconds,
			Routes:        maps.Clone(a.routes),
			Frames:        slices.Clone(a.frames),
		}
		if w.request > 0 {
			s.Share = a.seconds / w.request
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
	return r
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
