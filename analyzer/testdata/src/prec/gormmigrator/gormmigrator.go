// want package:`pending\(7\)` package:`convs\(1\)` package:`joined\(2\)`
// Package gormmigrator covers gorm's Migrator (issue 21): its queries run
// on the chain it was built from, so db.WithContext(ctx).Migrator() carries
// the request's context whatever gorm's migrator source (queries on the
// DB it stores) says, and a Migrator from a chain with no WithContext is
// SIO001 at the handler's call.
package gormmigrator

import (
	"net/http"
	"sync"

	"gorm.io/driver/memdb"
	"gorm.io/gorm"
)

type User struct{ Name string }

type Handlers struct {
	db *gorm.DB
	mu sync.Mutex
}

func init() { gorm.NewMigrator = memdb.Open().Migrator }

// Health checks a table on a chain with the request's context: silent.
func (h *Handlers) Health(w http.ResponseWriter, r *http.Request) {
	if !h.db.WithContext(r.Context()).Migrator().HasTable(&User{}) {
		http.Error(w, "no table", http.StatusServiceUnavailable)
	}
}

// Columns keeps the migrator in a local first: silent.
func (h *Handlers) Columns(w http.ResponseWriter, r *http.Request) {
	m := h.db.WithContext(r.Context()).Migrator()
	_, _ = m.ColumnTypes(&User{})
	_ = h.db.Session(&gorm.Session{Context: r.Context()}).Migrator().HasTable(&User{})
	_ = h.db.WithContext(r.Context()).AutoMigrate(&User{})
	_ = h.db.Migrator().GetTypeAliases("text") // no query
}

// NoContext builds the migrator on the stored DB: its queries are
// SIO001, reported here.
func (h *Handlers) NoContext(w http.ResponseWriter, r *http.Request) {
	_ = h.db.Migrator().HasTable(&User{}) // want `^gorm.Migrator.HasTable runs a query on a \*gorm.DB chain that never calls WithContext.*start the chain with WithContext: h.db.WithContext\(ctx\)… \(SIO001\)$`
	m := h.db.Migrator()
	_, _ = m.ColumnTypes(&User{}) // want `gorm.Migrator.ColumnTypes runs a query.*build m from a chain that starts with WithContext\(ctx\)`
	_ = h.db.AutoMigrate(&User{}) // want `gorm.\(\*DB\).AutoMigrate runs a query on a \*gorm.DB chain that never calls WithContext`
}

// Locked holds a mutex across the migrator's query: with the request's
// context it is still I/O under a lock.
func (h *Handlers) Locked(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	_ = h.db.WithContext(r.Context()).Migrator().HasTable(&User{}) // want `gorm.Migrator.HasTable does I/O while h.mu .*is held.*\(SIO003\)$`
}
