// Package memdb is a stand-in for a gorm driver (gorm.io/driver/postgres):
// its Dialector builds the migrator on the DB it is given.
package memdb

import (
	"gorm.io/gorm"
	"gorm.io/gorm/migrator"
)

type Dialector struct{}

func (Dialector) Migrator(db *gorm.DB) gorm.Migrator { return migrator.Migrator{DB: db} }

func Open() gorm.Dialector { return Dialector{} }
