// Package echo is a minimal stand-in for github.com/labstack/echo/v5, whose
// handlers take a *Context (v4's Context was an interface).
package echo

import "net/http"

type Context struct{ request *http.Request }

func (c *Context) Request() *http.Request { return c.request }

type HandlerFunc func(c *Context) error

type MiddlewareFunc func(next HandlerFunc) HandlerFunc

type HTTPErrorHandler func(c *Context, err error)

type Echo struct{ HTTPErrorHandler HTTPErrorHandler }

type Config struct{ HTTPErrorHandler HTTPErrorHandler }

func NewWithConfig(config Config) *Echo { return &Echo{} }

func New() *Echo                                                    { return &Echo{} }
func (e *Echo) GET(path string, h HandlerFunc, m ...MiddlewareFunc) {}
func (e *Echo) Group(prefix string, m ...MiddlewareFunc) *Group     { return &Group{} }

type Group struct{}

func (g *Group) GET(path string, h HandlerFunc, m ...MiddlewareFunc)  {}
func (g *Group) POST(path string, h HandlerFunc, m ...MiddlewareFunc) {}
