// Package pop is a minimal stand-in for github.com/gobuffalo/pop/v6: the
// eager modes and the preload branch that only EagerPreload turns on
// (pop v6.1.1 finders.go:209-218, preload_associations.go:464-470).
package pop

import (
	"context"

	"github.com/jmoiron/sqlx"
)

type EagerMode uint8

const (
	eagerModeNil EagerMode = iota
	EagerDefault
	EagerPreload
)

var loadingAssociationsStrategy = EagerDefault

// SetEagerMode changes the default mode of every eager query.
func SetEagerMode(m EagerMode) { loadingAssociationsStrategy = m }

type Connection struct {
	ctx context.Context
	tx  *sqlx.Tx
}

type Query struct {
	Connection *Connection
	eagerMode  EagerMode
	eager      bool
}

func (c *Connection) WithContext(ctx context.Context) *Connection { return &Connection{ctx: ctx, tx: c.tx} }

func (c *Connection) Q() *Query { return &Query{Connection: c, eagerMode: eagerModeNil} }

func (c *Connection) Eager(fields ...string) *Connection { return c }

func (c *Connection) EagerPreload(fields ...string) *Query { return c.Q().EagerPreload(fields...) }

func (q *Query) Eager(fields ...string) *Query {
	q.eager = true
	return q
}

func (q *Query) EagerPreload(fields ...string) *Query {
	q.Eager(fields...)
	q.eagerMode = EagerPreload
	return q
}

// All runs the query on the connection, with its context, then loads the
// associations.
func (q *Query) All(model any) error {
	if err := q.Connection.tx.GetContext(q.Connection.ctx, model, "SELECT"); err != nil {
		return err
	}
	if q.eager {
		return q.eagerAssociations(model)
	}
	return nil
}

func (q *Query) eagerAssociations(model any) error {
	if q.eagerMode == eagerModeNil {
		q.eagerMode = loadingAssociationsStrategy
	}
	if q.eagerMode == EagerPreload {
		return preload(q.Connection, model)
	}
	return q.Connection.tx.GetContext(q.Connection.ctx, model, "SELECT assoc")
}

// preload loads many_to_many associations with a context-less query.
func preload(c *Connection, model any) error {
	return c.tx.Get(model, "SELECT a, b FROM many_to_many")
}
