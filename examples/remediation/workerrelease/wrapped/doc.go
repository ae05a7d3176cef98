// Package wrapped is the "fake async" fix of ../before, kept as a warning:
// it runs the downstream call on another pool worker with (*pool.Pool).Do
// and waits for it, so each request holds two workers instead of one.
// syncio reports nothing here: the call has the request's context, and a
// func literal handed to another function is not followed. Only a load
// test (the /api/wrapped/profile scenario of syncio-load) shows it.
package wrapped
