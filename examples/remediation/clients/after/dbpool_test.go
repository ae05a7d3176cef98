package after

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// countingDB is a driver whose connections are counted as they open and
// whose statements wait at a gate, so that a round of queries holds as
// many connections at once as it has queries.
type countingDB struct {
	opens   atomic.Int32
	arrived chan struct{}
	release chan struct{}
}

func (c *countingDB) Connect(context.Context) (driver.Conn, error) {
	c.opens.Add(1)
	return gatedConn{c}, nil
}
func (c *countingDB) Driver() driver.Driver { return nil }

type gatedConn struct{ db *countingDB }

func (gatedConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (gatedConn) Close() error                        { return nil }
func (gatedConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }
func (g gatedConn) ExecContext(ctx context.Context, _ string, _ []driver.NamedValue) (driver.Result, error) {
	g.db.arrived <- struct{}{}
	select {
	case <-g.db.release:
		return driver.RowsAffected(0), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// opensFor runs rounds of width concurrent queries and returns how many
// connections were opened.
func opensFor(t *testing.T, configure func(*sql.DB), width, rounds int) int32 {
	t.Helper()
	c := &countingDB{arrived: make(chan struct{}), release: make(chan struct{})}
	db := sql.OpenDB(c)
	defer db.Close()
	configure(db)
	for range rounds {
		var wg sync.WaitGroup
		for range width {
			wg.Go(func() {
				if _, err := db.ExecContext(context.Background(), "SELECT 1"); err != nil {
					t.Error(err)
				}
			})
		}
		for range width {
			<-c.arrived // all width queries hold a connection at once
		}
		for range width {
			c.release <- struct{}{}
		}
		wg.Wait()
	}
	return c.opens.Load()
}

// TestMaxIdleConns: 5 rounds of 10 queries at once. With only
// SetMaxOpenConns(10), the default of 2 idle connections closes 8 after
// each round and dials them again: 10 + 4 × 8 = 42 connections opened.
// ConfigurePool keeps them: 10.
func TestMaxIdleConns(t *testing.T) {
	naive := opensFor(t, func(db *sql.DB) { db.SetMaxOpenConns(10) }, 10, 5)
	pooled := opensFor(t, func(db *sql.DB) { ConfigurePool(db, 10) }, 10, 5)
	if naive != 42 || pooled != 10 {
		t.Errorf("connections opened: %d with the default idle limit, %d with ConfigurePool; want 42 and 10", naive, pooled)
	}
}
