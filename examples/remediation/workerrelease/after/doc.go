// Package after is ../before with the downstream call made through
// (*pool.Pool).Await: the worker goes back to the pool while the call is
// in flight, and the handler takes one again, ahead of new arrivals, to
// write the response. syncio reports nothing.
package after
