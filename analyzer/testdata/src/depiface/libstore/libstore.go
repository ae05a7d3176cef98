// Package libstore binds the library's Store to a store published for it
// (a dependency's type, converted by the program): followed, like the
// program's own type.
package libstore

import (
	"net/http"

	"example.com/sessions"
	"example.com/sessions/pgstore"
)

var manager = sessions.NewManager(pgstore.New(nil))

func Profile(w http.ResponseWriter, r *http.Request) {
	_, _ = manager.Get(r, "sid") // reports: `^Profile calls sessions.\(\*Manager\).Get → sessions.\(\*Manager\).load → m.store.Get \(sessions.Store, bound to \*pgstore.PGStore in libstore\) → pgstore.\(\*PGStore\).Get → database/sql.\(\*DB\).QueryRow, which blocks without the request context; use db.QueryRowContext\(ctx, \.\.\.\) \(SIO001\)$`
}
