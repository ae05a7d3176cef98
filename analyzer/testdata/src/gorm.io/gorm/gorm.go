// Package gorm is a minimal stand-in for gorm.io/gorm: the chain and
// finisher methods the analyzer recognises.
package gorm

import "context"

// DB keeps the context its chain runs with, as gorm's Statement does.
type DB struct {
	Err error
	ctx context.Context
}

func (db *DB) Error() error { return db.Err }

type Session struct{ Context context.Context }

func Open(dsn string) (*DB, error)                     { return &DB{}, nil }
func (db *DB) WithContext(ctx context.Context) *DB     { return &DB{Err: db.Err, ctx: ctx} }
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
func (db *DB) Begin() *DB                              { return db }
func (db *DB) Commit() *DB                             { return db }
func (db *DB) Rollback() *DB                           { return db }

// Association reduces gorm's: its methods query through the stored DB, so
// gorm's own source is a chain rooted at a field.
type Association struct {
	DB    *DB
	Error error
}

func (db *DB) Association(column string) *Association { return &Association{DB: db} }
func (a *Association) Unscoped() *Association         { return a }
func (a *Association) Find(out any, conds ...any) error {
	return a.DB.Model(out).Find(out, conds...).Error()
}
func (a *Association) Append(values ...any) error { return a.DB.Model(nil).Create(values).Error() }
func (a *Association) Clear() error               { return a.DB.Model(nil).Create(nil).Error() }
func (a *Association) Count() (n int64)           { a.DB.Model(nil).Count(&n); return n }

// Migrator reduces gorm's: the driver's Dialector builds it on a session
// of the chain (db.Migrator()), and its implementation queries through
// the DB it stores (gorm.io/gorm/migrator).
type Migrator interface {
	AutoMigrate(dst ...any) error
	HasTable(dst any) bool
	ColumnTypes(dst any) ([]string, error)
	GetTypeAliases(databaseTypeName string) []string
}

// Dialector reduces gorm's: the driver that builds the Migrator.
type Dialector interface {
	Migrator(db *DB) Migrator
}

// NewMigrator is the driver's Migrator (gorm calls the Dialector it keeps
// in the DB's Config; a func value keeps the stand-in short).
var NewMigrator func(db *DB) Migrator

func (db *DB) Migrator() Migrator           { return NewMigrator(db) }
func (db *DB) AutoMigrate(dst ...any) error { return db.Migrator().AutoMigrate(dst...) }
func (db *DB) Row() *DB                     { return db }
