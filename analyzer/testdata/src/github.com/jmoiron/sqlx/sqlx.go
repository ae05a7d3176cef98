// Package sqlx is a minimal stand-in for github.com/jmoiron/sqlx.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }

type Tx struct{ *sql.Tx }

func Connect(driver, dsn string) (*DB, error)                                        { return &DB{}, nil }
func (db *DB) Get(dest any, q string, args ...any) error                             { return nil }
func (db *DB) GetContext(ctx context.Context, dest any, q string, args ...any) error { return nil }
func (db *DB) Select(dest any, q string, args ...any) error                          { return nil }
func (db *DB) NamedExec(q string, arg any) (sql.Result, error)                       { return nil, nil }
func (db *DB) Beginx() (*Tx, error)                                                  { return &Tx{}, nil }
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error)        { return &Tx{}, nil }
func (tx *Tx) Get(dest any, q string, args ...any) error                             { return nil }
