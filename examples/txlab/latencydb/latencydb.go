package latencydb

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"strings"
	"sync"
	"time"
)

// Connector opens connections to one model database. Use it with
// sql.OpenDB; every connection it opens shares the same outbox.
type Connector struct {
	rtt time.Duration

	mu     sync.Mutex
	outbox []string          // order ids not charged yet, oldest first
	status map[string]string // order id → status, as the UPDATEs set it
}

// New returns a Connector whose round trips take rtt.
func New(rtt time.Duration) *Connector { return &Connector{rtt: rtt} }

// Connect implements driver.Connector.
func (c *Connector) Connect(context.Context) (driver.Conn, error) { return &conn{db: c}, nil }

// Driver implements driver.Connector.
func (c *Connector) Driver() driver.Driver { return dsnless{c} }

// Pending reports how many outbox rows are waiting to be charged.
func (c *Connector) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.outbox)
}

// roundTrip waits one round trip, or until ctx ends, as a network call to
// the database would.
func (c *Connector) roundTrip(ctx context.Context) error {
	t := time.NewTimer(c.rtt)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// exec applies the statements the lab's outbox uses; any other statement
// only costs its round trip.
func (c *Connector) exec(query string, args []driver.NamedValue) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case strings.HasPrefix(query, "INSERT INTO outbox") && len(args) > 0:
		c.outbox = append(c.outbox, toString(args[0].Value))
	case strings.HasPrefix(query, "UPDATE orders SET status = '") && len(args) > 0:
		status, _, _ := strings.Cut(strings.TrimPrefix(query, "UPDATE orders SET status = '"), "'")
		if c.status == nil {
			c.status = map[string]string{}
		}
		c.status[toString(args[0].Value)] = status
	case strings.HasPrefix(query, "UPDATE outbox SET done = true") && len(args) > 0:
		id := toString(args[0].Value)
		for i, v := range c.outbox {
			if v == id {
				c.outbox = append(c.outbox[:i], c.outbox[i+1:]...)
				break
			}
		}
	}
}

// next returns the oldest pending outbox row for "SELECT order_id FROM
// outbox ...", an order's status for "SELECT status FROM orders ... $1"
// (once an UPDATE has set one), and nothing for any other query.
func (c *Connector) next(query string, args []driver.NamedValue) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case strings.HasPrefix(query, "SELECT order_id FROM outbox") && len(c.outbox) > 0:
		return []string{c.outbox[0]}
	case strings.HasPrefix(query, "SELECT status FROM orders") && len(args) > 0:
		if s, ok := c.status[toString(args[0].Value)]; ok {
			return []string{s}
		}
	}
	return nil
}

func toString(v driver.Value) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

// dsnless lets sql.DB.Driver() work; connections come from the Connector.
type dsnless struct{ c *Connector }

func (d dsnless) Open(string) (driver.Conn, error) { return &conn{db: d.c}, nil }

var errNoPrepare = errors.New("latencydb: prepared statements are not modelled; use ExecContext and QueryContext")

type conn struct{ db *Connector }

func (*conn) Prepare(string) (driver.Stmt, error) { return nil, errNoPrepare }
func (*conn) Close() error                        { return nil }
func (c *conn) Begin() (driver.Tx, error)         { return c.BeginTx(context.Background(), driver.TxOptions{}) }

func (c *conn) BeginTx(ctx context.Context, _ driver.TxOptions) (driver.Tx, error) {
	if err := c.db.roundTrip(ctx); err != nil {
		return nil, err
	}
	return tx{c.db}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if err := c.db.roundTrip(ctx); err != nil {
		return nil, err
	}
	c.db.exec(query, args)
	return driver.RowsAffected(1), nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if err := c.db.roundTrip(ctx); err != nil {
		return nil, err
	}
	return &rows{vals: c.db.next(query, args)}, nil
}

// tx commits in one round trip. The model keeps no undo log: the outbox
// statements of a rolled-back transaction stay applied, which the lab never
// relies on (its handlers only roll back after a failed statement).
type tx struct{ db *Connector }

func (t tx) Commit() error   { return t.db.roundTrip(context.Background()) }
func (t tx) Rollback() error { return t.db.roundTrip(context.Background()) }

type rows struct{ vals []string }

func (*rows) Columns() []string { return []string{"order_id"} }
func (*rows) Close() error      { return nil }

func (r *rows) Next(dest []driver.Value) error {
	if len(r.vals) == 0 {
		return io.EOF
	}
	dest[0] = r.vals[0]
	r.vals = r.vals[1:]
	return nil
}
