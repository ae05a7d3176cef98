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
//   - wrapped: the "fake async" of the original sample (`await
//     Task.Run(blocking)`). The handler hands its worker back and the
//     blocking call runs on another worker with [pool.Pool.Offload], taken
//     ahead of new arrivals; that worker then finishes the request. One worker
//     is still blocked per in-flight call, so it scales like sync, never
//     better, plus a hop through the continuation queue. (An earlier version
//     used [pool.Pool.Do], which kept the handler's worker while queueing the
//     call as a new arrival: under saturation every worker was held by a
//     handler whose call queued behind arrivals that no worker would ever
//     serve, and the pool deadlocked until the upstream timeout, 0.4 OK/s
//     against sync's 39 OK/s with 8 workers and 200 clients. ASP.NET hid that
//     starvation by growing its thread pool slowly; a fixed pool shows it.
//     With Offload, same setup, queue 64, 200 ms latency: wrapped 40.0 OK/s,
//     sync 40.0 OK/s, both with 1920 503s in 15 s; async-order 989 OK/s,
//     sync-order 39.5 OK/s.)
//   - order: POST /api/sync/order and /api/async/order run the order
//     workflow of [order.New] (validate; then the profile lookup and the
//     receipt upload in parallel; confirm) on the request's worker with
//     [activity.Workflow.RunHolding]. The async workflow's I/O activities
//     release the worker through [pool.Pool.Await]; the sync one holds it
//     across both calls. A bad order is answered 400 before anything runs.
//     The order's client ID is an idempotency key (ledger): a repeat with
//     the same body shares the first run's answer, another body is 409
//     order_conflict; each run has a server-made run key, which names its
//     receipt, so a failed run's compensation cannot delete a confirmed
//     run's receipt.
//     Workflow health events feed syncio_workflows_{started,completed,
//     faulted}_total{workflow="order-sync"|"order-async"}.
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
// The deliberate antipatterns that the syncio linter reports carry
// //syncio:ignore comments naming exactly the rules that fire: the sync
// profile handler (SIO002 for the remote client's detached context, SIO005
// for the in-process fake's time.Sleep, which propagates from
// fakes/profile; SIO003 for the serialized lock), the sync upload (SIO002)
// and the per-request client (SIO004). The async paths have no findings.
// lint_test.go checks both directions by running syncio with the comments
// blanked out. The linter cannot see three antipatterns, so they are
// explained in comments instead: the wrapped handler (a closure run by
// pool.Offload), the serialized async variant (a ctx-aware wait under a
// mutex) and the sync order workflow (blocking closures that the activity
// runtime calls).
//
// Start builds everything (including the embedded fakes when no external
// services are configured; the embedded blob server models Azure Blob
// latency and bandwidth, keeps blob bytes on disk up to
// Config.StorageMaxBytes, 4 GiB by default, and answers 507 storage_full
// beyond it, never dropping a blob it acknowledged), listens and serves in
// the background; Shutdown drains in-flight requests. Each Server has its own Prometheus registry, so
// several can run in one process.
package api
