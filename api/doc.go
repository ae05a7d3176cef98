// Package api is the syncio demo API: the same profile lookup and blob upload
// served synchronously and asynchronously behind a bounded worker pool, so the
// Synchronous I/O antipattern can be measured.
//
// Every /api request first takes a worker from a [pool.Pool] (admission
// middleware); with all workers busy it queues, and with the queue full it is
// answered 503 with Retry-After at once. What differs between the endpoints is
// only what the handler does with its worker while it waits on I/O:
//
//   - sync: keeps it. GET /api/sync/profile calls the profile service's
//     blocking method; POST /api/sync/upload calls azblob with a context that
//     is not the request's. W workers therefore serve at most W/latency
//     requests per second, and everything else queues or is rejected.
//   - async: hands it back with [pool.Pool.Await] while the I/O is in flight
//     and takes one back (ahead of new arrivals) to finish. The request's
//     context flows into every call, so an abandoned request stops waiting.
//   - wrapped: the "fake async" of the original sample (Task.Run around a
//     blocking call). The handler pushes the blocking call onto another
//     worker with [pool.Pool.Do] and waits for it. Nothing is released; the
//     request now occupies two workers instead of one, so it scales like sync
//     at best (with few clients it matches sync exactly). Under saturation it
//     is worse: when every worker is held by a wrapped handler, the inner
//     calls queue behind new arrivals for workers that only they could free
//     (the thread-pool starvation of sync-over-async), and only the upstream
//     timeout (504) breaks the knot. Measured with 8 workers, a queue of 64,
//     200 ms latency and 200 clients: sync 39 OK/s, async 977 OK/s, wrapped
//     0.4 OK/s with the rest 503 or 504. ASP.NET hid this by growing its
//     thread pool slowly; a fixed pool shows it plainly.
//
// Variants, as query parameters:
//
//   - ?instancing=percall|shared|serialized on the profile routes: a new
//     profile service per call, one shared instance (default), or one shared
//     instance guarded by a mutex held across the I/O, which lets only one
//     request at a time make progress whichever endpoint is used.
//   - ?client=per-request|shared on the upload routes: a new azblob client
//     with a new HTTP transport per request (no connection reuse) or the
//     shared client (default).
//
// The deliberate antipatterns that the syncio linter reports (the sync
// handlers, the serialized lock, the per-request client) carry
// //syncio:ignore comments; the async paths have no findings. The wrapped
// handler and the serialized async variant are antipatterns the linter cannot
// see (a closure run by pool.Do; a ctx-aware wait under a mutex), so they are
// explained in comments instead of suppressed.
//
// Start builds everything (including the embedded fakes when no external
// services are configured), listens and serves in the background; Shutdown
// drains in-flight requests. Each Server has its own Prometheus registry, so
// several can run in one process.
package api
