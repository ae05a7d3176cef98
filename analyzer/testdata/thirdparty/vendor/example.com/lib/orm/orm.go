// Package orm reduces jinzhu/gorm v1's Begin: a static call given
// context.Background() is still SIO002 in third-party code.
package orm

import "context"

type conn interface {
	BeginTx(ctx context.Context) error
}

// DB wraps a connection.
type DB struct{ c conn }

// Begin starts a transaction the caller's request cannot cancel.
func (db *DB) Begin() error { return db.BeginTx(context.Background()) }

// BeginTx starts a transaction under ctx.
func (db *DB) BeginTx(ctx context.Context) error { return db.c.BeginTx(ctx) }
