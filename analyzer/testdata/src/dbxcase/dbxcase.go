// want package:`pending\(5\)` package:`convs\(1\)` package:`joined\(2\)`

// Package dbxcase: dbx's finishers judged by the chain before them, as
// navidrome (every query .WithContext(r.ctx)) and pocketbase (queries
// with none) build them.
package dbxcase

import (
	"context"
	"net/http"

	"github.com/pocketbase/dbx"
)

type repo struct {
	ctx context.Context
	db  dbx.Builder
}

// navidrome's sqlRepository: the request's context kept in the
// repository and given to every query.
func (r repo) exec(q string) error { // want exec:`^io\(dbx.\(\*Query\).Execute\) \+ dyn\(r.db.NewQuery\)$`
	_, err := r.db.NewQuery(q).Bind(nil).WithContext(r.ctx).Execute()
	return err
}

func (r repo) one(q string, v any) error { // want one:`^io\(dbx.\(\*Query\).One\) \+ dyn`
	return r.db.NewQuery(q).WithContext(r.ctx).One(v)
}

// A local chain that sets the context before the finisher.
func (r repo) local(q string) error { // want local:`^io\(dbx.\(\*Query\).WithContext\) \+ dyn\(r.db.NewQuery\)$`
	query := r.db.NewQuery(q)
	query = query.WithContext(r.ctx)
	_, err := query.Execute()
	return err
}

// The context set on the DB reaches every query it builds.
func dbCtx(db *dbx.DB, ctx context.Context, v any) error { // want dbCtx:`^io\(dbx.\(\*SelectQuery\).One\)$`
	return db.WithContext(ctx).Select("*").From("t").One(v)
}

var store *dbx.DB

func Silent(w http.ResponseWriter, r *http.Request) {
	rp := repo{ctx: r.Context(), db: store}
	_ = rp.exec("UPDATE t SET x = 1")
	_ = rp.one("SELECT 1", nil)
	_ = rp.local("DELETE FROM t")
	_ = dbCtx(store, r.Context(), nil)
	_ = store.Select("*").WithContext(r.Context()).One(nil)
}

// pocketbase's shape: a query built with no WithContext.
func (r repo) noCtx(q string) error { // want noCtx:`^blocks\(SIO001: dbx.\(\*Query\).Execute\)`
	_, err := r.db.NewQuery(q).Execute() // the fact names this finisher
	return err
}

func NoContext(w http.ResponseWriter, r *http.Request) {
	rp := repo{db: store}
	_ = rp.noCtx("UPDATE t SET x = 1")       // want `runs a dbx query without WithContext.*\(SIO001\)$`
	_ = store.Select("*").From("t").One(nil) // want `runs a dbx query without WithContext.*\(SIO001\)$`
	_ = store.NewQuery("SELECT 1").One(nil)  // want `runs a dbx query without WithContext.*\(SIO001\)$`
}

// A query given context.Background(): the SIO002 of the WithContext call.
func Dropped(w http.ResponseWriter, r *http.Request) {
	_ = store.NewQuery("SELECT 1").WithContext(context.Background()).One(nil) // want `dbx.\(\*Query\).WithContext is given context.Background\(\).*\(SIO002\)$`
}

// A query of unknown origin (built by another function) is left to dbx's
// own source: its no-context branch.
func build() *dbx.SelectQuery { return store.Select("*") }

func Unknown(w http.ResponseWriter, r *http.Request) {
	q := build()
	_ = q.One(nil) // want `dbx.\(\*Query\).Rows → database/sql.\(\*DB\).Query, which blocks.*\(SIO001\)$`
}
