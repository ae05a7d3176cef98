package blockwatch

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestRatioMargin(t *testing.T) {
	var steady ratio
	for range 5 {
		steady.add(3, 10)
	}
	if m, ok := steady.margin(); !ok || m != 0 {
		t.Errorf("the same share in every sample: margin %v, %v; want 0", m, ok)
	}
	// Half the samples see every request blocked, half none: share 0.5,
	// Σ(b−0.5r)² = 4×25 = 100, se = √(4/3×100)/40 = 0.2887.
	var swinging ratio
	for i := range 4 {
		swinging.add(float64(10*(i%2)), 10)
	}
	if m, ok := swinging.margin(); !ok || math.Abs(m-1.96*math.Sqrt(400.0/3)/40) > 1e-9 {
		t.Errorf("swinging share: margin %v, %v; want 1.96 × 0.2887", m, ok)
	}
	var one ratio
	one.add(1, 2)
	if _, ok := one.margin(); ok {
		t.Error("one sample gave a margin; its spread is unknown")
	}
}

// TestRouteKindsAndMargins: a route with one request parked on a mutex
// and one on a channel in every sample reads half its time in each kind,
// with a margin of 0 (every sample saw the same), and says how many
// samples it rests on.
func TestRouteKindsAndMargins(t *testing.T) {
	stop := make(chan struct{})
	var mu sync.Mutex
	mu.Lock()
	defer func() { close(stop); mu.Unlock() }()
	run++
	route := fmt.Sprintf("/kinds#%d", run)
	go Do(context.Background(), route, func(context.Context) { receiver(stop) })
	go Do(context.Background(), route, func(context.Context) { locker(&mu) })
	w := eventually(t, func(r Report) bool {
		for _, x := range r.Routes {
			if x.Route == route {
				return len(x.Kinds) == 2
			}
		}
		return false
	})
	for range 2 {
		if err := w.sample(time.Second); err != nil {
			t.Fatal(err)
		}
	}
	var got Route
	for _, x := range w.Report().Routes {
		if x.Route == route {
			got = x
		}
	}
	if got.Samples != 3 || got.ShareMargin == nil || *got.ShareMargin != 0 {
		t.Fatalf("route %+v: want 3 samples and a margin of 0", got)
	}
	for _, k := range got.Kinds {
		if (k.Kind != Lock && k.Kind != Channel) || math.Abs(k.Share-0.5) > 1e-9 || k.Margin == nil || *k.Margin > 1e-9 {
			t.Errorf("kind %s: share %v margin %v; want lock and channel, half each, margin 0", k.Kind, k.Share, k.Margin)
		}
	}
}

// TestKindFirstSeenLater: a kind first seen in the route's third sample
// counts as 0 in the two before, so its share is over all three and its
// margin shows the swing.
func TestKindFirstSeenLater(t *testing.T) {
	r := &routeAgg{}
	for range 2 {
		r.fold(&tally{request: 1, blocked: 1, kinds: map[Kind]float64{Channel: 1}})
	}
	r.fold(&tally{request: 1, blocked: 1, kinds: map[Kind]float64{Lock: 1}})
	lock := r.kinds[Lock]
	if lock.share.n != 3 || math.Abs(lock.share.b/lock.share.r-1.0/3) > 1e-9 {
		t.Fatalf("lock share over %d samples = %v, want 1/3 over 3", lock.share.n, lock.share.b/lock.share.r)
	}
	if m, ok := lock.share.margin(); !ok || m <= 0.3 {
		t.Errorf("lock margin %v, %v; want a wide one (seen in 1 of 3 samples)", m, ok)
	}
}

// TestSiteMarginsAndLines: each site's share of a route has a margin of its
// own (a site first seen in the third sample swings widely), and the report
// names the own-code lines requests were at, running or parked, so a
// reader can tell a line never run from one run and never blocked.
func TestSiteMarginsAndLines(t *testing.T) {
	r := &routeAgg{}
	for range 2 {
		r.fold(&tally{request: 1, blocked: 1, sites: map[string]float64{"a": 1}})
	}
	r.fold(&tally{request: 1, blocked: 1, sites: map[string]float64{"b": 1}})
	if a, b := r.sites["a"], r.sites["b"]; a == nil || b == nil || a.share.n != 3 || b.share.n != 3 {
		t.Fatalf("sites %+v", r.sites)
	}
	if m, ok := r.sites["b"].share.margin(); !ok || m <= 0.3 {
		t.Errorf("site b, seen in 1 of 3 samples: margin %v, %v; want a wide one", m, ok)
	}

	stop := make(chan struct{})
	defer close(stop)
	run++
	route := fmt.Sprintf("/lines#%d", run)
	go Do(context.Background(), route, func(context.Context) { receiver(stop) })
	w := eventually(t, func(r Report) bool {
		for _, s := range r.Sites {
			if _, ok := s.Routes[route]; ok {
				return true
			}
		}
		return false
	})
	if err := w.sample(time.Second); err != nil {
		t.Fatal(err)
	}
	rep := w.Report()
	var site Site
	for _, s := range rep.Sites {
		if _, ok := s.Routes[route]; ok {
			site = s
		}
	}
	if m, ok := site.RouteShareMargins[route]; !ok || m > 1e-9 {
		t.Errorf("a site blocked in every sample of its route: margin %v, %v; want 0", m, ok)
	}
	f, ok := siteFrameOf(site)
	if !ok {
		t.Fatalf("site %+v has no frame of its own", site)
	}
	if secs := rep.Lines[f.File+":"+strconv.FormatInt(f.Line, 10)]; secs <= 0 {
		t.Errorf("the site's line %s:%d is not among the lines run (%d lines)", f.File, f.Line, len(rep.Lines))
	}
}

func siteFrameOf(s Site) (Frame, bool) {
	for _, f := range s.Frames {
		if f.Func == s.Func {
			return f, true
		}
	}
	return Frame{}, false
}
