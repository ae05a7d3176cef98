package server

import (
	"net/http"

	"ownrouter/gists"
	"ownrouter/web"
)

func logged(next Handler) Handler {
	return func(c *web.Context) error { return next(c) }
}

// health is this package's own handler, registered the same way.
func health(c *web.Context) error {
	resp, err := http.Get("http://db.internal/ping") // want `^net/http.Get blocks without the request context`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Routes(r *Router) { // want Routes:`unfollowed`
	r.GET("/gists", gists.List, logged) // want `^Routes calls gists.List → net/http.Get, which blocks`
	r.POST("/gists", gists.Create) // want `^Routes calls gists.Create → database/sql.\(\*DB\).Exec, which blocks`
	r.GET("/health", health)
}
