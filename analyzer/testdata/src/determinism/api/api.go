// Package api has a handler that calls through store.Store: the binding
// is seen only by the wiring packages above it.
package api

import (
	"net/http"

	"determinism/store"
)

type Users struct{ S store.Store }

func (u *Users) Get(w http.ResponseWriter, r *http.Request) {
	_ = u.S.Load(r.URL.Path)
}
