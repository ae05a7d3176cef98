package app

import (
	"database/sql"
	"net/http"

	"example.com/wired/api"
	"example.com/wired/store"
)

// RecentRoutes serves the recent sessions from memory.
func RecentRoutes(mux *http.ServeMux) {
	mux.Handle("/recent", &api.Recent{Sessions: &store.Memory{}})
}

// Fallback binds the remote store to api.Sessions, where no handler
// reads it.
var Fallback api.Sessions = &store.Remote{URL: "http://cache.internal"}

// eventNotifier records a signup with a query.
type eventNotifier struct{ db *sql.DB }

func (e *eventNotifier) Notify(user string) {
	_, _ = e.db.Exec("INSERT INTO events(user) VALUES (?)", user)
}

// SignupRoutes binds the notifier that api cannot see.
func SignupRoutes(mux *http.ServeMux, db *sql.DB) {
	mux.Handle("/signup", &api.Signup{N: &eventNotifier{db: db}})
}
