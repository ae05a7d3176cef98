// Package regions finds the stretches of a function body during which a
// bounded resource is held: a sync.Mutex or RWMutex (Locks, for SIO003) and
// a database transaction or pooled connection (Txs, for SIO007). It knows
// which calls lock, unlock, begin and end (with knowledge for the
// libraries), not what a rule makes of an operation inside a region.
package regions
