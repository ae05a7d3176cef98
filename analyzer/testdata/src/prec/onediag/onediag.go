// want package:`pending\(1\)` package:`convs\(1\)` package:`joined\(2\)`

// Package onediag: a root's call that reaches I/O on a static path and,
// through an interface bound in this package, on a path the join finds.
package onediag

import (
	"database/sql"
	"net/http"
)

type Store interface{ Update() }

type sqlStore struct{ db *sql.DB }

func (s *sqlStore) Update() { _, _ = s.db.Exec("UPDATE feeds SET x = 1") } // want Update:`blocks\(SIO001: database/sql.\(\*DB\).Exec\)`

func refresh(st Store) { // want refresh:`blocks\(SIO001: net/http.Get\) \+ dyn\(st.Update\)`
	resp, err := http.Get("http://example.com/favicon.ico")
	if err == nil {
		resp.Body.Close()
	}
	st.Update()
}

var store Store = &sqlStore{}

func Handler(w http.ResponseWriter, r *http.Request) {
	refresh(store) // want `^Handler calls onediag.refresh → net/http.Get, .*; also reaches onediag.refresh → st.Update \(onediag.Store, bound to \*onediag.sqlStore in onediag\) → .*database/sql.\(\*DB\).Exec at onediag.go:16:\d+ \(SIO001\)$`
}
