// Package app wires store into api: the first package that sees both.
package app

import (
	"database/sql"
	"net/http"

	"example.com/wired/api"
	"example.com/wired/store"
)

func Routes(db *sql.DB) *http.ServeMux {
	s := &store.SQL{DB: db}
	h := &api.Handlers{DB: s, Users: s}
	mux := http.NewServeMux()
	mux.HandleFunc("/health", h.Health)
	mux.HandleFunc("/user", h.User)
	return mux
}
