// Package store holds a mutex across a query and also writes a file: with
// SIO006 on, the file write is its highest-ranked path, and the lock must
// still reach the handler's call.
package store

import (
	"context"
	"database/sql"
	"os"
	"sync"
)

type Store struct {
	mu sync.Mutex
	db *sql.DB
}

func (s *Store) Save(ctx context.Context, v string) error { // want Save:`blocks\(SIO006: os.WriteFile\) \+ blocks\(\+SIO003: database/sql.\(\*DB\).ExecContext\)`
	s.mu.Lock()
	_, err := s.db.ExecContext(ctx, "INSERT INTO t VALUES (?)", v)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return os.WriteFile("/tmp/last", []byte(v), 0o600)
}

// Load reads a file and queries, no lock: a caller's lock across it is
// SIO003 through the query.
func Load(ctx context.Context, db *sql.DB) ([]byte, error) { // want Load:`blocks\(SIO006: os.ReadFile\) \+ io\(database/sql.\(\*DB\).QueryRowContext\)`
	b, err := os.ReadFile("/tmp/seed")
	if err != nil {
		return nil, err
	}
	return b, db.QueryRowContext(ctx, "SELECT 1").Err()
}
