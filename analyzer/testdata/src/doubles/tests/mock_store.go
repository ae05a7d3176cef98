// Package tests holds test support in non-test files, as navidrome's
// tests package does (mock_data_store.go): compiled into the binary only
// because tests import it.
package tests

import (
	"context"
	"database/sql"
	"sync"

	"doubles/model"
)

type MockStore struct {
	mu  sync.Mutex
	db  *sql.DB
	All map[string]string
}

func (m *MockStore) Get(ctx context.Context, id string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var v string
	err := m.db.QueryRowContext(ctx, "SELECT 1").Scan(&v)
	return v, err
}

// WithTx hands the mock to the callback: a conversion to model.Store
// recorded in a test-support package.
func (m *MockStore) WithTx(block func(model.Store) error) error { return block(m) }
