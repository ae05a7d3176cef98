package app

import (
	"net/http"

	"example.com/wired/api"
)

// OwnHandler is the service's own handler shape; OwnRouter's methods fold
// a route's middleware over it and register a literal calling the result
// (opengist's router over echo, here over net/http).
type OwnHandler func(w http.ResponseWriter, r *http.Request) error

type OwnMiddleware func(next OwnHandler) OwnHandler

func (h OwnHandler) toHTTP() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}
}

func ownChain(h OwnHandler, m ...OwnMiddleware) OwnHandler {
	for i := len(m) - 1; i >= 0; i-- {
		h = m[i](h)
	}
	return h
}

type OwnRouter struct{ Mux *http.ServeMux }

func (o *OwnRouter) GET(path string, h OwnHandler, m ...OwnMiddleware) {
	o.Mux.HandleFunc("GET "+path, ownChain(h, m...).toHTTP())
}

// OwnRoutes registers another package's method through the router: it is
// reported at the argument, with its fact.
func OwnRoutes(mux *http.ServeMux, s *api.Signup) {
	o := &OwnRouter{Mux: mux}
	o.GET("/signups/export", s.Export) // finding: SIO001
}
