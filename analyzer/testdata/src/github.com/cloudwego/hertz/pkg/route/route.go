// Package route is a minimal stand-in for
// github.com/cloudwego/hertz/pkg/route, where routes are registered.
package route

import "github.com/cloudwego/hertz/pkg/app"

type RouterGroup struct{}

func (g *RouterGroup) GET(relativePath string, handlers ...app.HandlerFunc) {}

type Engine struct{ RouterGroup }

func (e *Engine) NoRoute(handlers ...app.HandlerFunc)  {}
func (e *Engine) NoMethod(handlers ...app.HandlerFunc) {}
