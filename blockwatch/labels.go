package blockwatch

import (
	"context"
	"net/http"
	"runtime/pprof"
	"slices"
	"strings"
)

// Label keys. They are visible in any goroutine profile of the process
// (go tool pprof -tags), not only in the Watcher's.
const (
	// RouteLabel marks a request goroutine and names its route.
	RouteLabel = "syncio.route"
	// HoldingLabel lists the resources the goroutine holds, comma-separated
	// and sorted; it is absent or empty when it holds none.
	HoldingLabel = "syncio.holding"
)

// Do runs f on the calling goroutine labelled as a request of route, and
// restores the goroutine's labels afterwards (a net/http connection
// goroutine serves many requests, and the next one must not inherit this
// one's route). Goroutines that f starts inherit the labels.
func Do(ctx context.Context, route string, f func(context.Context)) {
	pprof.Do(ctx, pprof.Labels(RouteLabel, route), f)
}

// Label is net/http middleware that labels every request h serves with
// route (one label value per handler keeps the aggregate bounded).
func Label(route string, h http.Handler) http.Handler {
	return LabelFunc(func(*http.Request) string { return route }, h)
}

// LabelFunc is net/http middleware that labels each request with
// route(r). route should return a bounded set of values (a pattern, not a
// raw path), because the Watcher aggregates by route.
func LabelFunc(route func(*http.Request) string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		Do(r.Context(), route(r), func(ctx context.Context) {
			h.ServeHTTP(w, r.WithContext(ctx))
		})
	})
}

// Hold marks the calling goroutine as holding resource name (a pool
// worker, a semaphore slot) until release is called, and returns a context
// that says so, which later Hold and Drop calls on this goroutine must
// derive from. Outside a labelled request (no Do or middleware), it does
// nothing, so a service that does not watch pays nothing.
func Hold(ctx context.Context, name string) (_ context.Context, release func()) {
	if _, ok := pprof.Label(ctx, RouteLabel); !ok {
		return ctx, func() {}
	}
	cur, _ := pprof.Label(ctx, HoldingLabel)
	hctx := pprof.WithLabels(ctx, pprof.Labels(HoldingLabel, withName(cur, name)))
	pprof.SetGoroutineLabels(hctx)
	return hctx, func() { pprof.SetGoroutineLabels(ctx) }
}

// Drop marks the calling goroutine as no longer holding name until retake
// is called: for a pool that hands its worker back while the caller waits
// (an await), so the wait counts as holding nothing. ctx must derive from
// the context Hold returned.
func Drop(ctx context.Context, name string) (retake func()) {
	cur, ok := pprof.Label(ctx, HoldingLabel)
	if !ok {
		return func() {}
	}
	rest := withoutName(cur, name)
	if rest == cur {
		return func() {}
	}
	pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels(HoldingLabel, rest)))
	return func() { pprof.SetGoroutineLabels(ctx) }
}

func names(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ",")
}

func withName(list, name string) string {
	ns := names(list)
	if slices.Contains(ns, name) {
		return list
	}
	ns = append(ns, name)
	slices.Sort(ns)
	return strings.Join(ns, ",")
}

func withoutName(list, name string) string {
	ns := names(list)
	i := slices.Index(ns, name)
	if i < 0 {
		return list
	}
	return strings.Join(slices.Delete(ns, i, i+1), ",")
}
