// Package store holds the concrete types that main wires behind the
// handlers' interfaces.
package store

import (
	"context"
	"database/sql"
	"net/http"
)

// SQL is bound to api.HealthDB and api.UserStore in app.Routes.
type SQL struct{ db *sql.DB }

func New(db *sql.DB) *SQL { return &SQL{db: db} }

func (s *SQL) Ping() error { return s.db.Ping() }

func (s *SQL) User(id string) (string, error) {
	var name string
	err := s.db.QueryRow("SELECT name FROM users WHERE id = ?", id).Scan(&name)
	if err != nil {
		return "", err
	}
	_, err = http.Get("http://audit/" + id)
	return name, err
}

func (s *SQL) Save(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE users SET seen = 1 WHERE id = ?", id)
	return err
}

// Mem is bound too, and blocks nowhere.
type Mem struct{}

func (Mem) Ping() error { return nil }

// Unused has the method set of api.HealthDB but is never converted to an
// interface: it must not be reported.
type Unused struct{}

func (Unused) Ping() error {
	_, err := http.Get("http://unused")
	return err
}

// Finder is bound to service.Repo in app.Routes.
type Finder struct{ DB *sql.DB }

func (f *Finder) Find(id string) error {
	_, err := f.DB.Query("SELECT 1 WHERE id = ?", id)
	return err
}
