// Package ginwatch is blockwatch's gin middleware: it labels each request
// goroutine with the route gin matched, so a blockwatch.Watcher can tell
// request goroutines apart and aggregate by route. It is a package of its
// own so that net/http services importing blockwatch do not pull gin.
package ginwatch
