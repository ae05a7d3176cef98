package server

import (
	"database/sql"
	"net/http"
)

// Plain is a second shape: a conversion to the service's handler type,
// then a method of it that returns what net/http takes.
type Plain func(w http.ResponseWriter, r *http.Request) error

func (p Plain) HTTP() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := p(w, r); err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}
}

type Admin struct{ db *sql.DB }

func (a *Admin) list(w http.ResponseWriter, r *http.Request) error {
	rows, err := a.db.Query("SELECT id FROM items") // want `^database/sql.\(\*DB\).Query blocks without the request context`
	if err != nil {
		return err
	}
	return rows.Close()
}

func Mux(mux *http.ServeMux, a *Admin) {
	mux.Handle("/items", Plain(a.list).HTTP())
}
