// Package api serves through model.Store; the binding is made elsewhere.
package api

import (
	"net/http"

	"doubles/model"
)

type API struct{ Store model.Store }

func (a *API) Get(w http.ResponseWriter, r *http.Request) {
	_, _ = a.Store.Get(r.Context(), "x") // reports: `SQLStore.*database/sql.\(\*DB\).QueryRow.*\(SIO001\)$`
}
