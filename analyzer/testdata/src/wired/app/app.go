// Package app wires the implementations into the handlers: the first
// package that sees both sides.
package app

import (
	"database/sql"
	"net/http"

	"wired/api"
	"wired/blob"
	"wired/service"
	"wired/store"
)

func Routes(db *sql.DB) *http.ServeMux {
	s := store.New(db)
	mux := http.NewServeMux()
	mux.Handle("/health", api.Health{DB: s})
	mux.Handle("/users", http.HandlerFunc((&api.Users{Store: s}).Get))
	mux.Handle("/lookup", api.Lookup{S: &service.Service{Repo: &store.Finder{DB: db}}})
	mux.Handle("/upload", &api.Upload{Blobs: blob.New("http://blob")})
	mux.Handle("/ready", api.Ready{P: store.Mem{}})
	mux.Handle("/pair", &api.Pair{Store: s, DB: s})
	// An interface value converted to another interface: the concrete
	// type bound to the first reaches the second.
	var hs api.HealthDB = store.New(db)
	mux.Handle("/audit", api.Audit{A: hs})
	return mux
}
