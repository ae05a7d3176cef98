package after

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// closeClock is a driver whose connections record when they are closed.
type closeClock struct {
	mu     sync.Mutex
	closed []time.Time
}

func (c *closeClock) Connect(context.Context) (driver.Conn, error) { return clockConn{c}, nil }
func (c *closeClock) Driver() driver.Driver                        { return nil }

type clockConn struct{ c *closeClock }

func (clockConn) Prepare(string) (driver.Stmt, error) { return nil, errors.New("not supported") }
func (clockConn) Begin() (driver.Tx, error)           { return nil, errors.New("not supported") }
func (clockConn) ExecContext(context.Context, string, []driver.NamedValue) (driver.Result, error) {
	return driver.RowsAffected(0), nil
}
func (k clockConn) Close() error {
	k.c.mu.Lock()
	defer k.c.mu.Unlock()
	k.c.closed = append(k.c.closed, time.Now())
	return nil
}

// idleClose runs one query, leaves its connection idle until the path's
// cut-off, and returns how long after the query database/sql closed it
// (false if it is still open).
func idleClose(t *testing.T, configure func(*sql.DB)) (time.Duration, bool) {
	t.Helper()
	var after time.Duration
	var closed bool
	synctest.Test(t, func(t *testing.T) { // time is the bubble's fake clock
		c := &closeClock{}
		db := sql.OpenDB(c)
		configure(db)
		start := time.Now()
		if _, err := db.ExecContext(context.Background(), "SELECT 1"); err != nil {
			t.Fatal(err)
		}
		time.Sleep(pathIdleTimeout)
		c.mu.Lock()
		if len(c.closed) > 0 {
			after, closed = c.closed[0].Sub(start), true
		}
		c.mu.Unlock()
		db.Close()
	})
	return after, closed
}

// TestIdleClosedBeforeThePathDropsIt: with ConfigurePool, an idle
// connection is closed before the path's idle cut-off; with the idle time
// at 5 minutes, as this example had it, it is still open when a load
// balancer with a 4-minute cut-off has dropped it.
func TestIdleClosedBeforeThePathDropsIt(t *testing.T) {
	after, closed := idleClose(t, func(db *sql.DB) { ConfigurePool(db, 4) })
	if !closed || after >= pathIdleTimeout {
		t.Errorf("ConfigurePool: idle connection closed %v (%v after its query); want before %v", closed, after, pathIdleTimeout)
	}
	_, closed = idleClose(t, func(db *sql.DB) {
		ConfigurePool(db, 4)
		db.SetConnMaxIdleTime(5 * time.Minute)
	})
	if closed {
		t.Error("with a 5-minute idle time the connection was closed before the cut-off; the contrast no longer holds")
	}
}
