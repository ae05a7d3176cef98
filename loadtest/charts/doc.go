// Package charts draws a load run's per-step figures against users with
// gonum.org/v1/plot, as PNG and SVG: OK throughput and mean latency (every
// scenario on the same log-scale axes, as in the original article), the
// 503 rate, and the server's queue length.
package charts
