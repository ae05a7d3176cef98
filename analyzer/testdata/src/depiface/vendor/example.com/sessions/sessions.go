// Package sessions stands in for a session library (gorilla/sessions,
// alexedwards/scs): it declares the Store its users implement and calls it
// on every request. It is vendored, so it is a dependency (third-party).
package sessions

import (
	"database/sql"
	"net/http"
)

// Store is what the program implements (its own Postgres store) or takes
// from the library (SQLStore).
type Store interface {
	Get(r *http.Request, name string) (string, error)
}

type Manager struct{ store Store }

func NewManager(s Store) *Manager { return &Manager{store: s} }

// Get loads the session: the call through Store happens here, inside the
// dependency.
func (m *Manager) Get(r *http.Request, name string) (string, error) {
	return m.load(r, name)
}

func (m *Manager) load(r *http.Request, name string) (string, error) {
	return m.store.Get(r, name)
}

// SQLStore is the library's own store, which blocks without the request's
// context too.
type SQLStore struct{ DB *sql.DB }

func (s *SQLStore) Get(r *http.Request, name string) (string, error) {
	var v string
	err := s.DB.QueryRow("SELECT v FROM lib_sessions WHERE k = ?", name).Scan(&v)
	return v, err
}

// NewSQLManager binds the library's own store, inside the library: that
// binding is the library's plumbing and is not followed.
func NewSQLManager(db *sql.DB) *Manager { return NewManager(&SQLStore{DB: db}) }
