// Package blockwatch confirms blocking at run time: it labels request
// goroutines, samples their stacks at a fixed rate while a load runs, and
// reports where they were parked (network, syscall, sleep, channel, lock)
// and whether they held a bounded resource, such as a worker-pool slot,
// while they waited.
//
// It is the run-time half of syncio. The linter says "this chain blocks on
// a request path"; blockwatch says "this site was seen blocking, holding a
// worker, for this share of request time, and this share of its route's
// time". `syncio -confirm` joins the two.
//
// It lives at the top level, apart from the demo API, because any service
// can import it: labelling is package-level (Label, LabelFunc, Do, Hold,
// Drop) and costs a context value per request, and a Watcher samples
// whatever goroutines carry the labels and run the service's own code: the
// main module's packages and package main (handlers in package main are
// named main.(*server).held in profiles; WithModule names other prefixes).
// When labelled requests ran but none ran own code, the report, the
// Collector's metrics and `syncio -confirm` say so instead of reading 0.
// The gin middleware is in the ginwatch subpackage, so net/http users do
// not pull gin. Collector puts the running sums on a Prometheus registry.
//
// Sampling reads the runtime's goroutine profile (the proto form, which
// keeps pprof labels) rather than runtime.Stack(all), which stops the world
// throughout and has no labels (BenchmarkSample, BenchmarkStackAll).
// Sampling keeps to a budget of the sampling thread's CPU time
// (WithBudget), so a busy machine does not slow it, and the report's
// windows (WithWindow) show no figures, with the reason, where they rest on
// too few samples. docs/blockwatch.md has the measured cost of a sample and
// the accuracy against a service whose truth is known.
package blockwatch
