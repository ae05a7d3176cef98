// Package pgstore stands in for a store module published for the session
// library (scs's postgresstore): a dependency's type that the program
// binds to the library's Store itself.
package pgstore

import (
	"database/sql"
	"net/http"
)

type PGStore struct{ db *sql.DB }

func New(db *sql.DB) *PGStore { return &PGStore{db: db} }

func (s *PGStore) Get(r *http.Request, name string) (string, error) {
	var v string
	err := s.db.QueryRow("SELECT data FROM sessions WHERE token = $1", name).Scan(&v)
	return v, err
}
