// Package blockwatch confirms blocking at run time: it labels request
// goroutines, samples their stacks at a fixed rate while a load runs, and
// reports where they were parked (network, syscall, sleep, channel, lock)
// and whether they held a bounded resource, such as a worker-pool slot,
// while they waited.
//
// It is the run-time half of syncio. The linter says "this chain blocks on
// a request path"; blockwatch says "this site was seen blocking, holding a
// worker, for this share of request time". `syncio -confirm` joins the two.
//
// It lives at the top level, apart from the demo API, because any service
// can import it: labelling is package-level (Label, LabelFunc, Do, Hold,
// Drop) and costs a context value per request, and a Watcher samples
// whatever goroutines carry the labels. The gin middleware is in the
// ginwatch subpackage, so net/http users do not pull gin.
//
// Sampling reads the runtime's goroutine profile (the proto form, which
// keeps pprof labels) rather than runtime.Stack(all): the profile stops the
// world only briefly and records each distinct stack once, and at 8,000
// goroutines it took about half the time of a full stack dump, which stops
// the world throughout and has no labels (BenchmarkSample,
// BenchmarkStackAll). Sampling keeps to a CPU budget (WithBudget).
package blockwatch
