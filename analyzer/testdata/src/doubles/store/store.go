// Package store is the server's store, and a double declared beside it.
package store

import (
	"context"
	"database/sql"
	"sync"

	"doubles/model"
)

type SQLStore struct{ db *sql.DB }

func New(db *sql.DB) model.Store { return &SQLStore{db: db} }

func (s *SQLStore) Get(ctx context.Context, id string) (string, error) {
	var v string
	err := s.db.QueryRow("SELECT v FROM t WHERE id = $1", id).Scan(&v)
	return v, err
}

func (s *SQLStore) WithTx(block func(model.Store) error) error { return block(s) }

// FakeStore is a double named as one, in a production package.
type FakeStore struct {
	mu sync.Mutex
	db *sql.DB
}

func (f *FakeStore) Get(ctx context.Context, id string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var v string
	err := f.db.QueryRowContext(ctx, "SELECT 1").Scan(&v)
	return v, err
}

func (f *FakeStore) WithTx(block func(model.Store) error) error { return block(f) }
