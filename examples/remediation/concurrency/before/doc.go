// Package before fans a request out to a downstream price service with one
// goroutine per item and no limit, then waits on a sync.WaitGroup that
// nothing can cancel. syncio reports the wait as SIO005; the missing limit
// is what moves the bottleneck to the downstream service once the handler
// itself no longer blocks. See ../after for the fix.
package before
