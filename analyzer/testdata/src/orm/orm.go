package orm

import (
	"context"
	"net/http"

	v1 "github.com/jinzhu/gorm"
	"github.com/jmoiron/sqlx"
	"gorm.io/gorm"

	"orm/repo"
)

type User struct{ Name string }

type Handlers struct {
	db    *gorm.DB
	old   *v1.DB
	x     *sqlx.DB
	users *repo.Users
}

var global *gorm.DB

func (h *Handlers) Gorm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var us []User
	h.db.Where("name = ?", "a").Find(&us)      // want `^gorm.\(\*DB\).Find runs a query on a \*gorm.DB chain that never calls WithContext, so the request context is not used; start the chain with WithContext: h.db.WithContext\(ctx\)… \(SIO001\)$`
	h.db.WithContext(ctx).Where("x").Find(&us) // fine
	global.First(&us)                          // want `gorm.\(\*DB\).First runs a query on a \*gorm.DB chain that never calls WithContext`
	q := h.db.Model(&User{}).Where("x")
	var n int64
	q.Count(&n) // want `gorm.\(\*DB\).Count runs a query`
	scoped := h.db.WithContext(ctx)
	scoped.Where("y").Find(&us)                                                     // fine: through a local
	h.db.Session(&gorm.Session{Context: ctx}).Find(&us)                             // fine: Session with a Context
	h.db.WithContext(context.Background()).Find(&us)                                // want `gorm.\(\*DB\).WithContext is given context.Background\(\) instead of the request context.*\(SIO002\)$`
	_ = h.db.Transaction(func(tx *gorm.DB) error { return tx.Create(&us).Error() }) // want `gorm.\(\*DB\).Transaction runs a query`
	// A long chain is still one chain: each link is a step back, not a
	// variable to follow (opengist's nine-link queries were dropped).
	h.db.Model(&User{}).Where("a").Where("b").Where("c").Where("d").Where("e").Where("f").Where("g").Where("h").Where("i").Find(&us) // want `^gorm.\(\*DB\).Find runs a query on a \*gorm.DB chain that never calls WithContext`
	h.db.WithContext(ctx).Where("a").Where("b").Where("c").Where("d").Where("e").Where("f").Where("g").Where("h").Where("i").Find(&us) // fine
}

// Param gets its *gorm.DB from the caller: it may carry a context, so
// nothing is reported (the caller's chain decides).
func Param(db *gorm.DB, w http.ResponseWriter, r *http.Request) { // want Param:`^io\(gorm.\(\*DB\).Find\)$`
	var us []User
	db.Find(&us)
}

func (h *Handlers) Repo(w http.ResponseWriter, r *http.Request) {
	_, _ = h.users.ByID(1)                 // want `^\(\*Handlers\).Repo calls repo.\(\*Users\).ByID → gorm.\(\*DB\).First, which runs a query on a \*gorm.DB chain that never calls WithContext.*\(SIO001\)$`
	_, _ = h.users.ByIDCtx(r.Context(), 1) // fine
	_ = h.count()                          // want `^\(\*Handlers\).Repo calls orm.\(\*Handlers\).count → gorm.\(\*DB\).Count`
}

func (h *Handlers) count() int64 { // want count:`^blocks\(SIO001: gorm.\(\*DB\).Count\)$`
	var n int64
	h.db.Model(&User{}).Count(&n)
	return n
}

func (h *Handlers) V1(w http.ResponseWriter, r *http.Request) {
	var us []User
	h.old.Where("x").Find(&us) // want `^gorm.\(\*DB\).Find runs a query that cannot be cancelled: gorm v1 has no context support; migrate to gorm.io/gorm.*\(SIO001\)$`
}

func (h *Handlers) Sqlx(w http.ResponseWriter, r *http.Request) {
	var u User
	_ = h.x.Get(&u, "SELECT 1")                     // want `^github.com/jmoiron/sqlx.\(\*DB\).Get blocks without the request context; use the sqlx GetContext\(ctx, \.\.\.\) method \(SIO001\)$`
	_ = h.x.GetContext(r.Context(), &u, "SELECT 1") // fine
	_, _ = h.x.NamedExec("UPDATE", u)               // want `NamedExec blocks without the request context; use the sqlx NamedExecContext`
	tx, _ := h.x.Beginx()                           // want `Beginx blocks without the request context; use db.BeginTxx\(ctx, nil\)`
	_ = tx.Get(&u, "SELECT 1")                      // want `sqlx.\(\*Tx\).Get blocks`
	_, _ = h.x.Exec("DELETE")                       // want `database/sql.\(\*DB\).Exec blocks`
}
