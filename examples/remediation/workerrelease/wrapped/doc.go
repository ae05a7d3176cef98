// Package wrapped is the "fake async" fix of ../before, kept as a warning:
// it runs the downstream call on another pool worker with
// (*pool.Pool).Offload, as the demo's /api/wrapped/profile does, so one
// worker is still blocked per in-flight request. syncio reports nothing
// here: it follows the literal into Offload, but the call has the request's
// context and a pool slot is no lock it knows. Only a load test (the
// wrapped-profile scenario of syncio-load) shows it.
package wrapped
