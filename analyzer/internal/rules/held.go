package rules

import (
	"strings"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO003 lock-across-io and SIO007 tx-across-io: an operation reached
// while a mutex is held, or a remote call while a transaction or pooled
// connection is open. The regions themselves are internal/regions'; the
// items carry the lock and transaction held at them (the analyzer's
// collect), and a path's rules are decided here, at the item and again
// when dispatch brings a path back to the handler's call (the analyzer's
// applyPending).

// Lockable are the rules whose operation blocks, so holding a lock across
// it is SIO003; "" is I/O that is no finding by itself.
var Lockable = map[string]bool{"": true, "SIO001": true, "SIO002": true, "SIO005": true}

// Apply drops the rules of f that are off or suppressed (a Lockable
// operation still counts as I/O under a lock), and adds the lock and the
// transaction held where f is reached; dispatch (the analyzer's
// applyPending) applies the same to what it carried from the handler's
// call.
func (p *Pkg) Apply(f *paths.Finding, lock, tx string, suppressed func(rule string) bool) *paths.Finding {
	g := *f
	if g.Rule != "" && (!p.Enabled(g.Rule) || suppressed(g.Rule)) {
		if !Lockable[g.Rule] {
			return nil
		}
		g.Rule = ""
	}
	if lock != "" && g.Lock == "" && Lockable[f.Rule] {
		g.Lock = lock
	}
	if g.Lock != "" && (!p.Enabled("SIO003") || suppressed("SIO003")) {
		g.Lock = ""
	}
	if tx != "" && g.Tx == "" && remote(f) {
		g.Tx = tx
	}
	if g.Tx != "" && (!p.Enabled("SIO007") || suppressed("SIO007")) {
		g.Tx = ""
	}
	return &g
}

// dbPackages are the package names and import paths (as chains name
// them: SIO001 table keys by path, other callees by package name) whose calls are
// database work, not a remote call: the transaction's own queries, or
// another query on the same pool.
var dbPackages = []string{
	"database/sql.", "gorm.", "sqlx.", "pgx.", "pgxpool.", "pgconn.",
	"gorm.io/", "github.com/jinzhu/gorm.", "github.com/jmoiron/sqlx.", "github.com/jackc/",
}

// remote reports whether a path ends at a remote call or a wait: anything
// that blocks (Lockable) but is no database call.
func remote(f *paths.Finding) bool {
	if !Lockable[f.Rule] || len(f.Chain) == 0 {
		return false
	}
	last := f.Chain[len(f.Chain)-1]
	for _, p := range dbPackages {
		if strings.HasPrefix(last, p) {
			return false
		}
	}
	return true
}
