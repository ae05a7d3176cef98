// Package before is a read-through cache whose handler holds the cache's
// mutex while it loads a missing value from a downstream service: every
// request, hit or miss, queues behind the slowest load. The load is
// context-aware, so only SIO003 is reported. See ../after for the fix.
package before
