package analyzer

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
func (r *pkgView) applyRules(f *finding, lock, tx string, suppressed func(rule string) bool) *finding {
	g := *f
	if g.rule != "" && (!r.cfg.enabled(g.rule) || suppressed(g.rule)) {
		if !lockable[g.rule] {
			return nil
		}
		g.rule = ""
	}
	if lock != "" && g.lock == "" && lockable[f.rule] {
		g.lock = lock
	}
	if g.lock != "" && (!r.cfg.enabled("SIO003") || suppressed("SIO003")) {
		g.lock = ""
	}
	if tx != "" && g.tx == "" && f.remote() {
		g.tx = tx
	}
	if g.tx != "" && (!r.cfg.enabled("SIO007") || suppressed("SIO007")) {
		g.tx = ""
	}
	return &g
}
