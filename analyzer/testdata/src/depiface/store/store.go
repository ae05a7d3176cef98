// Package store is the service's own Postgres store; it queries without
// the request's context.
package store

import (
	"database/sql"
	"net/http"
)

type PG struct{ db *sql.DB }

func New(db *sql.DB) *PG { return &PG{db: db} }

func (s *PG) Get(r *http.Request, name string) (string, error) {
	var v string
	err := s.db.QueryRow("SELECT v FROM sessions WHERE k = $1", name).Scan(&v)
	return v, err
}
