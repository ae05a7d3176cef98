// Package before calls context-aware functions from a handler with a
// context that is not the request's: context.Background() wrapped in a
// timeout, and a helper that makes up its own context.TODO(). syncio
// reports both as SIO002. See ../after for the fix.
package before
