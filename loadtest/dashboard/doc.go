// Package dashboard serves the load lab's live view while a run lasts: an
// HTML page (every asset embedded, so it works offline) that charts each
// scenario's OK/s, 503/s, latency p50/p99, users and, when the target's
// /metrics is sampled, queue length and busy workers; and /events, a
// Server-Sent Events stream of one Point a second per running scenario,
// ending with the run's summary.
//
// A page that connects late is sent every point so far first, so it draws
// the whole run, not only what follows.
package dashboard
