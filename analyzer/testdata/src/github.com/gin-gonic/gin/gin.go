// Package gin is a minimal stand-in for github.com/gin-gonic/gin: only the
// types the analyzer recognises.
package gin

import (
	"net/http"
	"time"
)

type Context struct{ Request *http.Request }

func (c *Context) Deadline() (time.Time, bool)      { return time.Time{}, false }
func (c *Context) Done() <-chan struct{}            { return nil }
func (c *Context) Err() error                       { return nil }
func (c *Context) Value(key any) any                { return nil }
func (c *Context) JSON(code int, obj any)           {}
func (c *Context) Copy() *Context                   { return c }
func (e *Engine) GET(path string, h ...HandlerFunc) {}

type HandlerFunc func(*Context)

type Engine struct{ ContextWithFallback bool }

func New() *Engine { return &Engine{} }
