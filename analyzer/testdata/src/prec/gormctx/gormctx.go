// Package gormctx covers gorm values that carry a context (precision class
// 3 of issue 10): an Association built from a WithContext chain, the
// list-query idiom where a local is reassigned from its own chain, and
// chains rooted at an index expression.
package gormctx

import (
	"net/http"

	"gorm.io/gorm"
)

type User struct{ Name string }
type Role struct{ Name string }

type Handlers struct {
	db  *gorm.DB
	dbs map[string]*gorm.DB
}

var (
	global *gorm.DB
	shards []*gorm.DB
)

// Association runs on the chain it was built from.
func (h *Handlers) Association(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var u User
	var roles []Role
	_ = h.db.WithContext(ctx).Model(&u).Association("Roles").Find(&roles)
	_ = h.db.WithContext(ctx).Model(&u).Association("Roles").Unscoped().Clear()
	a := h.db.WithContext(ctx).Model(&u).Association("Roles")
	_ = a.Count()
	_ = h.db.Model(&u).Association("Roles").Find(&roles) // want `^gorm.\(\*Association\).Find runs a query on a \*gorm.DB chain that never calls WithContext.*start the chain with WithContext: h.db.WithContext\(ctx\)… \(SIO001\)$`
	b := h.db.Model(&u).Association("Roles")
	_ = b.Append(&Role{}) // want `gorm.\(\*Association\).Append runs a query on a \*gorm.DB chain that never calls WithContext`
}

// List is the list-query idiom with the request's context: silent.
func (h *Handlers) List(w http.ResponseWriter, r *http.Request) {
	var us []User
	var n int64
	db := h.db.WithContext(r.Context()).Model(&User{})
	if name := r.FormValue("name"); name != "" {
		db = db.Where("name = ?", name)
	}
	db.Count(&n)
	db.Find(&us)
}

// ListNoCtx is the same idiom on the field with no WithContext: both
// queries are SIO001.
func (h *Handlers) ListNoCtx(w http.ResponseWriter, r *http.Request) {
	var us []User
	var n int64
	db := h.db.Model(&User{})
	if name := r.FormValue("name"); name != "" {
		db = db.Where("name = ?", name)
	}
	db.Count(&n) // want `gorm.\(\*DB\).Count runs a query on a \*gorm.DB chain that never calls WithContext`
	db.Find(&us) // want `gorm.\(\*DB\).Find runs a query on a \*gorm.DB chain that never calls WithContext`
}

// ListGlobal starts from a package-level *gorm.DB.
func ListGlobal(w http.ResponseWriter, r *http.Request) {
	var us []User
	db := global
	db = db.Where("x")
	db.Find(&us) // want `gorm.\(\*DB\).Find runs a query`
}

// list gets its *gorm.DB from the caller and reassigns it from its own
// chain: the caller's chain decides.
func list(db *gorm.DB, name string) []User { // want list:`^io\(gorm.\(\*DB\).Find\)$`
	var us []User
	if name != "" {
		db = db.Where("name = ?", name)
	}
	db.Find(&us)
	return us
}

func (h *Handlers) ListParam(w http.ResponseWriter, r *http.Request) {
	_ = list(h.db.WithContext(r.Context()), "a")
}

// Index: a map or slice of *gorm.DB in a field or a global is stored like
// a field; a local one may hold anything.
func (h *Handlers) Index(w http.ResponseWriter, r *http.Request) {
	var us []User
	name := r.FormValue("tenant")
	h.dbs[name].Where("x").Find(&us)                   // want `gorm.\(\*DB\).Find runs a query on a \*gorm.DB chain that never calls WithContext.*h.dbs\[name\].WithContext\(ctx\)`
	shards[0].First(&us)                               // want `gorm.\(\*DB\).First runs a query`
	h.dbs[name].WithContext(r.Context()).Find(&us)     // fine
	local := []*gorm.DB{h.db.WithContext(r.Context())} //
	local[0].Find(&us)                                 // fine: a local slice
}
