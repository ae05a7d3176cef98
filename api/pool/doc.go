// Package pool makes the scarce resource of a request-serving process explicit:
// a fixed number of workers and a bounded FIFO admission queue in front of them.
//
// It models what ASP.NET's thread pool and the IIS request queue did in the
// original Synchronous I/O article. In Go, goroutines are cheap and a network
// wait parks a goroutine rather than a thread, so "one thread per request" is
// not the problem; holding a bounded resource while waiting on I/O is. Here the
// bounded resource is a worker slot:
//
//   - A new request calls [Pool.Acquire]. With a free worker it runs at once;
//     otherwise it waits in a FIFO queue of bounded length. When the queue is
//     full it gets [ErrQueueFull] immediately (the HTTP layer answers 503 with
//     Retry-After). A queued request whose context ends is dropped, never run.
//   - A handler that does I/O the asynchronous way calls [Pool.Await]: the
//     worker is handed back while the I/O is in flight and taken again
//     afterwards as a continuation. Continuations are served before new
//     arrivals and are never rejected, so a full admission queue cannot starve
//     requests that are already half done.
//   - A synchronous handler simply keeps its worker across the I/O, which is
//     the antipattern the demo measures.
//
// The package knows nothing about HTTP or gin; the middleware that acquires a
// worker per request lives in package api.
package pool
