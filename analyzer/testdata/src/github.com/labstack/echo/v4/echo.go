// Package echo is a minimal stand-in for github.com/labstack/echo/v4.
package echo

import "net/http"

type Context interface{ Request() *http.Request }

type HandlerFunc func(Context) error

type MiddlewareFunc func(next HandlerFunc) HandlerFunc

type Route struct{}

type HTTPErrorHandler func(err error, c Context)

// Echo keeps the servers Start and StartTLS serve, as echo's does.
type Echo struct {
	Server, TLSServer *http.Server
	HTTPErrorHandler  HTTPErrorHandler
}

func New() *Echo                               { return &Echo{} }
func (e *Echo) GET(path string, h HandlerFunc) {}
func (e *Echo) RouteNotFound(path string, h HandlerFunc, m ...MiddlewareFunc) *Route {
	return nil
}
func (e *Echo) Start(address string) error { return nil }
func (e *Echo) StartTLS(address string, certFile, keyFile any) error {
	return nil
}

// Group is a route group, as echo's.
type Group struct{}

func (e *Echo) Group(prefix string, m ...MiddlewareFunc) *Group { return &Group{} }
func (g *Group) GET(path string, h HandlerFunc, m ...MiddlewareFunc) *Route {
	return nil
}
func (g *Group) POST(path string, h HandlerFunc, m ...MiddlewareFunc) *Route {
	return nil
}
