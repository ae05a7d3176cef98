package analyzer

import "github.com/syncio/syncio/analyzer/internal/paths"

// SIO003 lock-across-io and SIO007 tx-across-io: an operation reached
// while a mutex is held, or a remote call while a transaction or pooled
// connection is open. The regions themselves are internal/regions'; the
// items carry the lock and transaction held at them (collect), and a
// path's rules are decided here, at the item and again when dispatch
// brings a path back to the handler's call (applyPending).

// lockable are the rules whose operation blocks, so holding a lock across
// it is SIO003; "" is I/O that is no finding by itself.
var lockable = map[string]bool{"": true, "SIO001": true, "SIO002": true, "SIO005": true}

// applyRules drops the rules of f that are off or suppressed (a lockable
// operation still counts as I/O under a lock), and adds the lock and the
// transaction held where f is reached; dispatch (applyPending) applies the
// same to what it carried from the handler's call.
func (r *pkgView) applyRules(f *paths.Finding, lock, tx string, suppressed func(rule string) bool) *paths.Finding {
	g := *f
	if g.Rule != "" && (!r.cfg.enabled(g.Rule) || suppressed(g.Rule)) {
		if !lockable[g.Rule] {
			return nil
		}
		g.Rule = ""
	}
	if lock != "" && g.Lock == "" && lockable[f.Rule] {
		g.Lock = lock
	}
	if g.Lock != "" && (!r.cfg.enabled("SIO003") || suppressed("SIO003")) {
		g.Lock = ""
	}
	if tx != "" && g.Tx == "" && remote(f) {
		g.Tx = tx
	}
	if g.Tx != "" && (!r.cfg.enabled("SIO007") || suppressed("SIO007")) {
		g.Tx = ""
	}
	return &g
}
