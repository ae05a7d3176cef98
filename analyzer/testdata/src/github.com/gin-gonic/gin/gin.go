// Package gin is a minimal stand-in for github.com/gin-gonic/gin: only the
// types the analyzer recognises.
package gin

import (
	"net/http"
	"time"
)

type Context struct{ Request *http.Request }

func (c *Context) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *Context) Done() <-chan struct{}       { return nil }
func (c *Context) Err() error                  { return nil }
func (c *Context) Value(key any) any           { return nil }
func (c *Context) JSON(code int, obj any)      {}
func (c *Context) Copy() *Context              { return c }

type HandlerFunc func(*Context)

// RouterGroup registers routes; Engine embeds it, as gin's does.
type RouterGroup struct{}

func (g *RouterGroup) GET(path string, h ...HandlerFunc)  {}
func (g *RouterGroup) POST(path string, h ...HandlerFunc) {}
func (g *RouterGroup) Group(path string, h ...HandlerFunc) *RouterGroup {
	return g
}

type Engine struct {
	RouterGroup
	ContextWithFallback bool
}

func New() *Engine { return &Engine{} }

func (e *Engine) NoRoute(handlers ...HandlerFunc)  {}
func (e *Engine) NoMethod(handlers ...HandlerFunc) {}

// Run and RunTLS serve with a zero-timeout server, as gin's do
// (knowledge's serve rows).
func (e *Engine) Run(addr ...string) error                    { return http.ListenAndServe("", nil) }
func (e *Engine) RunTLS(addr, certFile, keyFile string) error { return nil }
