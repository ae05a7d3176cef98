// Package before records a visit after a request in the two ways that
// come first to mind: inline with context.Background(), so that a client
// hanging up does not lose the record (the response waits for the audit
// service, with no deadline), and in a goroutine of its own per request
// (nothing bounds how many run, nothing waits for them at shutdown).
package before
