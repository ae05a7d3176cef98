// Package after is ../before with a limit on the calls in flight to the
// price service, shared by all requests and sized by Little's law
// (LittleLimit): a Limiter that waits briefly for a slot, sheds with 503
// and Retry-After past that, and exports its waiters. Results are gathered
// in a select on ctx.Done(). syncio reports nothing.
package after
