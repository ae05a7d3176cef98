// Package gorm is a minimal stand-in for gorm.io/gorm: the chain and
// finisher methods the analyzer recognises.
package gorm

import "context"

type DB struct{ Err error }

func (db *DB) Error() error { return db.Err }

type Session struct{ Context context.Context }

func Open(dsn string) (*DB, error)                     { return &DB{}, nil }
func (db *DB) WithContext(ctx context.Context) *DB     { return db }
func (db *DB) Session(s *Session) *DB                  { return db }
func (db *DB) Where(q any, args ...any) *DB            { return db }
func (db *DB) Model(v any) *DB                         { return db }
func (db *DB) Raw(sql string, args ...any) *DB         { return db }
func (db *DB) Find(dest any, conds ...any) *DB         { return db }
func (db *DB) First(dest any, conds ...any) *DB        { return db }
func (db *DB) Create(v any) *DB                        { return db }
func (db *DB) Count(n *int64) *DB                      { return db }
func (db *DB) Scan(dest any) *DB                       { return db }
func (db *DB) Transaction(fc func(tx *DB) error) error { return fc(db) }
