// Package app binds api's notifier to a store that runs a query.
package app

import (
	"context"
	"database/sql"
	"net/http"

	"prec/crossdiag/api"
)

type dbNotifier struct{ db *sql.DB }

func (d *dbNotifier) Notify(user string) {
	_, _ = d.db.Exec("INSERT INTO events(user) VALUES (?)", user)
	_, _ = d.db.ExecContext(context.Background(), "UPDATE users SET seen = 1 WHERE name = ?", user)
}

func Routes(db *sql.DB) *http.ServeMux {
	a := &api.API{N: &dbNotifier{db: db}}
	mux := http.NewServeMux()
	mux.HandleFunc("/c", a.Create)
	mux.HandleFunc("/u", a.Update)
	mux.HandleFunc("/d", a.Delete)
	mux.HandleFunc("/a", a.Audit)
	mux.Handle("/q", &api.Quiet{N: &dbNotifier{db: db}})
	return mux
}
