// Package server wraps echo in the service's own router: its methods take
// the service's Handler type, fold the route's middleware over it in a
// loop, and register a literal (made by a method of the func type) that
// calls the result.
package server

import (
	"github.com/labstack/echo/v4"

	"ownrouter/web"
)

type Handler func(c *web.Context) error

type Middleware func(next Handler) Handler

func (h Handler) toEchoHandler() echo.HandlerFunc {
	return func(c echo.Context) error {
		if wc, ok := c.(*web.Context); ok {
			return h(wc)
		}
		return h(&web.Context{Context: c})
	}
}

func chain(h Handler, middleware ...Middleware) Handler { // want chain:`unfollowed` chain:`calls\(1\)`
	for i := len(middleware) - 1; i >= 0; i-- {
		h = middleware[i](h)
	}
	return h
}

type Router struct{ *echo.Group }

func (r *Router) GET(path string, h Handler, m ...Middleware) { // want GET:`registrar\(1\) echo` GET:`unfollowed` GET:`calls\(2\)`
	r.Group.GET(path, chain(h, m...).toEchoHandler())
}

func (r *Router) POST(path string, h Handler, m ...Middleware) { // want POST:`registrar\(1\) echo` POST:`unfollowed` POST:`calls\(2\)`
	r.Group.POST(path, chain(h, m...).toEchoHandler())
}
