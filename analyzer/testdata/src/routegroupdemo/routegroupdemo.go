// Package routegroupdemo registers its handlers with go-pkgz/routegroup
// (remark42's router): each registration call is seen, and a handler
// value syncio cannot follow (built inside a dependency, as go-pkgz/auth's
// Handlers() are) is named as unresolved instead of passing unseen.
package routegroupdemo

import (
	"net/http"

	"github.com/go-pkgz/routegroup"
)

// api keeps the handler a dependency built (go-pkgz/auth's Handlers()).
type api struct{ auth http.Handler }

func (a *api) comments(w http.ResponseWriter, r *http.Request) {
	_, _ = http.Get("http://store/comments") // want `net/http.Get blocks without the request context`
}

func notFound(w http.ResponseWriter, r *http.Request) {
	_, _ = http.Get("http://store/404") // want `net/http.Get blocks without the request context`
}

// Routes registers the handlers.
func Routes(a *api) *routegroup.Bundle { // want Routes:`^dyn\(routegroup.\(\*Bundle\).HandleFunc → routegroup.\(\*Bundle\).register → routegroup.\(\*Bundle\).wrap → b.middlewares\[i\]\)$`
	router := routegroup.New(http.NewServeMux())
	router.Route(func(r *routegroup.Bundle) {
		r.HandleFunc("GET /api/v1/find", a.comments)
		r.Handle("/auth/", a.auth)
	})
	router.NotFoundHandler(notFound)
	return router
}
