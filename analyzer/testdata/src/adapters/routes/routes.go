// Package routes hands another package's function to an adapter.
package routes

import (
	"net/http"

	"adapters/handlers"
	"adapters/mw"
)

func Register(mux *http.ServeMux) {
	mux.Handle("/list", mw.Wrap(mw.Deps{}, handlers.List)) // want `^Register calls handlers.List → net/http.Get, which blocks`
}
