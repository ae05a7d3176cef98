package knowledge

import (
	"fmt"
	"go/types"
	"strings"
	"sync"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// Import paths of gorm (v2 and v1), recognised by path and type name.
const (
	PathGorm   = "gorm.io/gorm"
	PathGormV1 = "github.com/jinzhu/gorm"
)

// GormReceiver returns the gorm import path when fn is a method of
// *gorm.DB (v2 or v1), else "".
func GormReceiver(fn *types.Func) string {
	recv := named.Recv(fn)
	if recv == nil {
		return ""
	}
	for _, path := range []string{PathGorm, PathGormV1} {
		if named.Is(recv.Type(), true, path, "DB") {
			return path
		}
	}
	return ""
}

// GormAssocReceiver returns the gorm import path when fn is a method of
// *gorm.Association (v2 or v1), else "".
func GormAssocReceiver(fn *types.Func) string {
	recv := named.Recv(fn)
	if recv == nil {
		return ""
	}
	for _, path := range []string{PathGorm, PathGormV1} {
		if named.Is(recv.Type(), true, path, "Association") {
			return path
		}
	}
	return ""
}

// gormMigratorPure returns the methods of gorm.Migrator that run no
// query, by name: the noquery rows of calls.txt (they describe types from
// the schema).
var gormMigratorPure = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	prefix := PathGorm + ".Migrator."
	for _, r := range builtin() {
		if r.Kind == KindNoQuery {
			name, ok := strings.CutPrefix(r.Key, prefix)
			if !ok {
				panic(fmt.Sprintf("syncio: %s:%d: %s: a noquery row of another type than %sMigrator", r.File, r.Line, r.Key, PathGorm+"."))
			}
			m[name] = true
		}
	}
	return m
})

// GormMigratorMethod reports whether fn is a method of gorm.io/gorm's
// Migrator interface, and whether it runs a query. The Migrator of
// db.Migrator() is built on a Session of db's statement, whose Context is
// db's (gorm v1.25.11, migrator.go: (*DB).Migrator calls getInstance,
// which keeps Statement.Context, then Session(&Session{}), which keeps
// the Statement), so its queries carry whatever context the chain before
// Migrator() was given; gorm v1 has no Migrator.
func GormMigratorMethod(fn *types.Func) (method, query bool) {
	recv := named.Recv(fn)
	if recv == nil || !IsGormMigrator(recv.Type()) {
		return false, false
	}
	return true, !gormMigratorPure()[fn.Name()]
}

// IsGormMigrator reports whether t is gorm.io/gorm's Migrator interface.
func IsGormMigrator(t types.Type) bool {
	return named.Is(t, false, PathGorm, "Migrator")
}
