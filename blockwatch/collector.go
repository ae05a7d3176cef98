package blockwatch

import (
	"maps"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
)

// Collector exposes a Watcher's running sums on a Prometheus registry, so
// that a scraper (the load lab) gets them per time window without reading
// the whole report: reg.MustRegister(blockwatch.NewCollector(w)).
//
// When labelled requests ran but none ran own code (see WithModule), the
// seconds counters are left out, not sent as zeros that read as "nothing
// blocked", and syncio_blockwatch_not_counting carries the reason instead.
type Collector struct {
	w                                               *Watcher
	request, blocked, blockedWorker, samples, costs *prometheus.Desc
	watched                                         *prometheus.Desc
	routeRequest, routeHolding                      *prometheus.Desc
	routeBlocked, routeBlockedWorker                *prometheus.Desc
	notCounting                                     *prometheus.Desc
}

// NewCollector returns a Collector of w's sums.
func NewCollector(w *Watcher) *Collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("syncio_blockwatch_"+name, help, labels, nil)
	}
	return &Collector{
		w:             w,
		request:       d("request_seconds_total", "Request goroutine-seconds seen by the blocking watcher, running or not."),
		blocked:       d("blocked_seconds_total", "Request goroutine-seconds parked in I/O, sleeps, channel or lock waits (waits excluded with WithIgnore left out)."),
		blockedWorker: d("blocked_holding_worker_seconds_total", "The part of syncio_blockwatch_blocked_seconds_total spent holding a worker; its rate is the mean number of workers blocked."),
		samples:       d("samples_total", "Samples the watcher took: its increase over a window is how many samples that window's figures rest on."),
		watched: d("watched_seconds_total", "Wall time the samples stand for, each weighted by the time since the one before. "+
			"Divide a seconds counter's increase by this one's over the same window for the mean number of goroutines: "+
			"divided by the window's wall time instead, a window that one long-weighted sample falls in reads too high, and one that no sample falls in reads 0."),
		costs:        d("sampling_cpu_seconds_total", "CPU time the watcher spent sampling (the sampling thread's, or wall time where that cannot be read), which its budget bounds."),
		routeRequest: d("route_request_seconds_total", "Request goroutine-seconds by route, the denominator of a route's shares.", "route"),
		routeHolding: d("route_holding_worker_seconds_total", "Request goroutine-seconds by route spent holding a worker, running or parked (the route's slot time).", "route"),
		routeBlocked: d("route_blocked_seconds_total", "Blocked request goroutine-seconds by route.", "route"),
		routeBlockedWorker: d("route_blocked_holding_worker_seconds_total",
			"Blocked request goroutine-seconds by route spent holding a worker.", "route"),
		notCounting: d("not_counting", "1 while labelled requests ran but none ran the service's own code, with the reason; the seconds counters are absent meanwhile.", "reason"),
	}
}

// Describe sends the descriptors of every metric the Collector may send.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.request, c.blocked, c.blockedWorker, c.samples, c.watched, c.costs,
		c.routeRequest, c.routeHolding, c.routeBlocked, c.routeBlockedWorker, c.notCounting} {
		ch <- d
	}
}

// Collect sends the current sums.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	t := c.w.Totals()
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	counter(c.samples, float64(t.Samples))
	counter(c.watched, t.WatchedS)
	counter(c.costs, t.SamplingCPUS)
	if t.NoOwnCode != "" {
		ch <- prometheus.MustNewConstMetric(c.notCounting, prometheus.GaugeValue, 1, t.NoOwnCode)
		return
	}
	counter(c.request, t.RequestS)
	counter(c.blocked, t.BlockedS)
	counter(c.blockedWorker, t.BlockedHoldingWorkerS)
	for _, name := range slices.Sorted(maps.Keys(t.Routes)) {
		r := t.Routes[name]
		counter(c.routeRequest, r.RequestS, name)
		counter(c.routeHolding, r.HoldingWorkerS, name)
		counter(c.routeBlocked, r.BlockedS, name)
		counter(c.routeBlockedWorker, r.BlockedHoldingWorkerS, name)
	}
}
