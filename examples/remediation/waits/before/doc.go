// Package before waits without any way out: a retry helper that sleeps
// between attempts, and a handler that receives from a channel with a bare
// <-. syncio reports both as SIO005. See ../after for the fix.
package before
