// Package gin is a stand-in for github.com/gin-gonic/gin with only what
// the wired service uses: syncio knows gin by import path and type name.
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

type HandlerFunc func(*Context)

type RouterGroup struct{}

func (g *RouterGroup) GET(path string, h ...HandlerFunc) {}

type Engine struct {
	RouterGroup
	ContextWithFallback bool
}

func New() *Engine { return &Engine{} }
