// Package aggregate turns vegeta Results and /metrics samples into per-step
// figures: counts by outcome, OK throughput and OK latency percentiles over
// a step's measured window, and the server's queue, workers and memory over
// the same window.
//
// A result belongs to the step whose window contains its completion time
// (Timestamp + Latency): throughput is completions per second, and a
// request sent during the ramp but answered after settling is part of the
// steady state being measured. vegeta.Metrics is not used for the figures
// because it counts 503s as errors and divides throughput by the attack's
// span rather than the window; percentiles are exact (sorted samples),
// which also makes results from several machines merge exactly.
package aggregate
