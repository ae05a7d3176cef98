// Package gorm is a minimal stand-in for github.com/jinzhu/gorm (v1).
package gorm

type DB struct{}

func (db *DB) Where(q any, args ...any) *DB     { return db }
func (db *DB) Find(dest any, conds ...any) *DB  { return db }
func (db *DB) First(dest any, conds ...any) *DB { return db }
