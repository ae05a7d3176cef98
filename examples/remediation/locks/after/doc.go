// Package after is ../before with the mutex held only around memory:
// look up under the lock, load outside it, publish under it again. Misses
// for the same key share one load through singleflight's DoChan, waited
// for in a select on the request's context. syncio reports nothing.
package after
