// Package app binds the session library's Store to its own Postgres store,
// which queries without the request's context; the library calls it from
// Manager.Get on every request.
package app

import (
	"database/sql"
	"net/http"

	"example.com/sessions"
)

type pgStore struct{ db *sql.DB }

func (s *pgStore) Get(r *http.Request, name string) (string, error) {
	var v string
	err := s.db.QueryRow("SELECT v FROM sessions WHERE k = $1", name).Scan(&v)
	return v, err
}

var manager = sessions.NewManager(&pgStore{})

// Profile reaches the program's store through the library's interface; the
// library's own SQLStore, bound inside the library, is not among the paths.
func Profile(w http.ResponseWriter, r *http.Request) {
	_, _ = manager.Get(r, "sid") // reports: `^Profile calls sessions.\(\*Manager\).Get → sessions.\(\*Manager\).load → m.store.Get \(sessions.Store, bound to \*app.pgStore in app\) → app.\(\*pgStore\).Get → database/sql.\(\*DB\).QueryRow, which blocks without the request context; use db.QueryRowContext\(ctx, \.\.\.\) \(SIO001\)$`
}
