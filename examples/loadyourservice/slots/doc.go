// Package slots is the service of docs/load-your-service.md: a tiny HTTP
// service with a few slots (a semaphore standing for any bounded resource:
// database connections, a worker pool, licences to a backend) and two
// endpoints that use them differently.
//
//   - GET /held takes a slot and keeps it across its backend wait: the
//     antipattern. At most Slots requests are in their wait at once; more
//     queue for a slot, and beyond Queue waiters the service answers 503.
//   - GET /released takes a slot only for its short CPU parts, before and
//     after the wait, and lets go of it while waiting.
//
// /metrics exposes the slots as Prometheus gauges under this service's own
// names (slots_in_use, slots_waiting, slots_total), which syncio-load
// reads with -metric-busy, -metric-queue and -metric-workers. WithWatcher
// wires a blockwatch.Watcher in (the command does, in its package main):
// routes labelled, the slot marked as held, the watcher's totals on
// /metrics and its report on /debug/syncio/blocking.
package slots
