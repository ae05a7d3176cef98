package pool

import "github.com/prometheus/client_golang/prometheus"

// metrics are the pool's Prometheus series. The names are a contract with the
// load lab and dashboards; do not rename them.
type metrics struct {
	workers  prometheus.Gauge
	busy     prometheus.Gauge
	queue    prometheus.Gauge
	rejected prometheus.Counter
	wait     prometheus.Histogram
}

func newMetrics(buckets []float64) metrics {
	return metrics{
		workers: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_pool_workers",
			Help: "Number of worker slots in the pool.",
		}),
		busy: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_pool_workers_busy",
			Help: "Worker slots currently held by a request.",
		}),
		queue: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "syncio_pool_queue_length",
			Help: "New requests waiting in the admission queue for a worker.",
		}),
		rejected: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "syncio_pool_rejected_total",
			Help: "Requests rejected because the admission queue was full.",
		}),
		wait: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "syncio_pool_queue_wait_seconds",
			Help:    "Time a new request waited in the admission queue before getting a worker.",
			Buckets: buckets,
		}),
	}
}

func (m metrics) register(reg prometheus.Registerer) {
	reg.MustRegister(m.workers, m.busy, m.queue, m.rejected, m.wait)
}
