// Package before serves a profile behind a bounded worker pool
// (github.com/syncio/syncio/api/pool) and keeps its worker while it waits
// on a downstream service with a context-less call. syncio reports the
// call as SIO001; the worker it holds is what the load test shows. See
// ../after for the fix and ../wrapped for the fake fix.
package before
