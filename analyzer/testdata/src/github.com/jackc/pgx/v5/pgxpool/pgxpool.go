// Package pgxpool is a minimal stand-in for pgx v5's pool.
package pgxpool

import "context"

type Pool struct{}

func New(ctx context.Context, dsn string) (*Pool, error) { return &Pool{}, nil }

// Tx reduces pgx.Tx to what the analyzer needs.
type Tx struct{}

func (tx *Tx) Exec(ctx context.Context, sql string, args ...any) (any, error) { return nil, nil }
func (tx *Tx) Commit(ctx context.Context) error                               { return nil }
func (tx *Tx) Rollback(ctx context.Context) error                             { return nil }
func (p *Pool) Begin(ctx context.Context) (*Tx, error)                        { return &Tx{}, nil }
