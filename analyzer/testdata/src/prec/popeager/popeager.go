// Package popeager: pop's preload runs only after a query's
// EagerPreload (or pop.SetEagerMode). A query that never asks for it is
// not reported for preload's context-less query (supabase/auth: 96 of
// 155 findings were that); one that does is reported at its EagerPreload.
package popeager

import (
	"net/http"

	"github.com/gobuffalo/pop/v6"
)

var db *pop.Connection

// Eager loads associations in the default mode: no finding.
func Eager(w http.ResponseWriter, r *http.Request) {
	var users []string
	_ = db.WithContext(r.Context()).Q().Eager().All(&users)
}

// Preloaded asks for the preload mode: reported at EagerPreload.
func Preloaded(w http.ResponseWriter, r *http.Request) {
	var users []string
	_ = db.WithContext(r.Context()).EagerPreload("Roles").All(&users) // want `^github.com/gobuffalo/pop/v6.\(\*Connection\).EagerPreload makes the finisher preload many_to_many associations with a sqlx query that takes no context, which the request cannot cancel; use Eager\(fields...\)`
}
