// Package app's handler loads the session through the library; main binds
// the library's Store to the service's own store, which the library calls
// from Manager.Get on every request. The finding is reported at the
// handler's call by main, which sees the binding.
package app

import (
	"net/http"

	"example.com/sessions"
)

var Manager *sessions.Manager

// Profile reaches the program's store through the library's interface; the
// library's own SQLStore, bound inside the library, is not among the paths.
func Profile(w http.ResponseWriter, r *http.Request) {
	_, _ = Manager.Get(r, "sid") // reports: `^Profile calls sessions.\(\*Manager\).Get → sessions.\(\*Manager\).load → m.store.Get \(sessions.Store, bound to \*store.PG in main.main\) → store.\(\*PG\).Get → database/sql.\(\*DB\).QueryRow, which blocks without the request context; use db.QueryRowContext\(ctx, \.\.\.\) \(SIO001\)$`
}
