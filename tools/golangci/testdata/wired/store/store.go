// Package store is the concrete side, wired in app.
package store

import (
	"context"
	"database/sql"
	"net/http"
)

type SQL struct{ DB *sql.DB }

func (s *SQL) Ping() error { return s.DB.Ping() }

func (s *SQL) User(ctx context.Context, id string) (string, error) {
	var name string
	err := s.DB.QueryRowContext(ctx, "SELECT name FROM users WHERE id = ?", id).Scan(&name)
	if err != nil {
		return "", err
	}
	// A second hop that drops the context: a separate finding.
	_, err = http.Get("http://audit.internal/" + id)
	return name, err
}
