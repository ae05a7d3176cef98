// Package routegroup is a minimal stand-in for github.com/go-pkgz/routegroup
// v1.6.1: groups of routes on an http.ServeMux, each handler wrapped in
// the group's middlewares before it is registered (group.go:208-233), so
// that the mux's registration does not show which handler it serves.
package routegroup

import "net/http"

type Bundle struct {
	mux         *http.ServeMux
	middlewares []func(http.Handler) http.Handler
}

func New(mux *http.ServeMux) *Bundle { return &Bundle{mux: mux} }

func (b *Bundle) ServeHTTP(w http.ResponseWriter, r *http.Request) { b.mux.ServeHTTP(w, r) }

func (b *Bundle) Group() *Bundle { return &Bundle{mux: b.mux, middlewares: b.middlewares} }

func (b *Bundle) Mount(basePath string) *Bundle { return b.Group() }

func (b *Bundle) Use(middleware func(http.Handler) http.Handler, more ...func(http.Handler) http.Handler) {
	b.middlewares = append(append(b.middlewares, middleware), more...)
}

func (b *Bundle) Route(configureFn func(*Bundle)) { configureFn(b.Group()) }

func (b *Bundle) Handle(pattern string, handler http.Handler) { b.register(pattern, handler.ServeHTTP) }

func (b *Bundle) HandleFunc(pattern string, handler http.HandlerFunc) { b.register(pattern, handler) }

func (b *Bundle) HandleRoot(method string, handler http.Handler) {
	b.register(method+" /", handler.ServeHTTP)
}

func (b *Bundle) HandleRootFunc(method string, handler http.HandlerFunc) {
	b.register(method+" /", handler)
}

func (b *Bundle) NotFoundHandler(handler http.HandlerFunc) { b.register("/", handler) }

func (b *Bundle) register(pattern string, handler http.HandlerFunc) {
	b.mux.Handle(pattern, b.wrap(handler))
}

func (b *Bundle) wrap(h http.Handler) http.Handler {
	for i := len(b.middlewares) - 1; i >= 0; i-- {
		h = b.middlewares[i](h)
	}
	return h
}
