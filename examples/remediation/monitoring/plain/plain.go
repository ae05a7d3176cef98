// Package plain exports the symptoms of synchronous I/O for any Go service,
// without the demo's worker pool: goroutines and threads, process CPU, the
// database/sql connection pool, and HTTP latency and in-flight requests.
// docs/monitoring/go-service-alerts.yml and go-service-dashboard.json use
// only the series it exports.
package plain

import (
	"database/sql"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Instrument registers the Go runtime, process and sql.DBStats collectors
// on reg and wraps next so that it records requests in flight and request
// duration by status code and method. db may be nil (no go_sql_* series);
// dbName becomes the db_name label of the go_sql_* series.
func Instrument(reg prometheus.Registerer, next http.Handler, db *sql.DB, dbName string) http.Handler {
	reg.MustRegister(
		collectors.NewGoCollector(),                                       // go_goroutines, go_threads, ...
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), // process_cpu_seconds_total, ...
	)
	if db != nil {
		// go_sql_in_use_connections, go_sql_max_open_connections,
		// go_sql_wait_count_total, go_sql_wait_duration_seconds_total, ...
		reg.MustRegister(collectors.NewDBStatsCollector(db, dbName))
	}
	inFlight := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "http_requests_in_flight",
		Help: "Requests being served.",
	})
	duration := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "http_request_duration_seconds",
		Help:    "Time from the start of the handler to its return, by status code and method.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"code", "method"})
	reg.MustRegister(inFlight, duration)
	return promhttp.InstrumentHandlerInFlight(inFlight,
		promhttp.InstrumentHandlerDuration(duration, next))
}
