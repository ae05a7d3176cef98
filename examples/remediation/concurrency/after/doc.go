// Package after is ../before with a limit on the calls in flight to the
// price service, shared by all requests (a semaphore.Weighted acquired with
// the request's context), and results gathered in a select on ctx.Done().
// syncio reports nothing.
package after
