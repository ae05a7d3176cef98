// want package:`pending\(1\)`

// Package router stores handlers of its own type and calls them from its
// ServeHTTP through Context.Next, as small routers do.
package router

import "net/http"

type Handler func(*Context) // want Handler:`^adapter\(-1\)$`

type Context struct {
	Req   *http.Request
	Out   http.ResponseWriter
	chain []Handler
	index int
}

// Next runs the next handler: a call through a value of type Handler.
func (c *Context) Next() { // want Next:`^dyn\(c.chain\[c.index\]\)$`
	c.index++
	c.chain[c.index](c)
}

type Router struct{ routes map[string][]Handler }

// For only stores the handler.
func (r *Router) For(path string, h Handler) { r.routes[path] = append(r.routes[path], h) } // want For:`^stores\(1→adapters/router.Router.routes\)$`

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c := &Context{Req: req, Out: w, chain: r.routes[req.URL.Path], index: -1}
	c.Next()
}

// Hook is a func type that no request root calls: not a handler type.
type Hook func(*Context)

func (r *Router) OnStart(h Hook) {}
