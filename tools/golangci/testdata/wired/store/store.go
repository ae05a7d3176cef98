// Package store is the concrete side, wired in app.
package store

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
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

// Token reads a token with the context it is given.
func (s *SQL) Token(ctx context.Context, key string) (string, error) {
	var v string
	err := s.DB.QueryRowContext(ctx, "SELECT v FROM tokens WHERE k = ?", key).Scan(&v)
	return v, err
}

// Memory is an in-memory cache: no I/O.
type Memory struct {
	mu sync.Mutex
	m  map[string]string
}

func (m *Memory) Get(_ context.Context, key string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.m[key], nil
}

// Remote is a cache over HTTP that does not pass the context on.
type Remote struct{ URL string }

func (r *Remote) Get(_ context.Context, key string) (string, error) {
	resp, err := http.Get(r.URL + "/" + key)
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}
