// Package chi is a minimal stand-in for github.com/go-chi/chi/v5.
package chi

import "net/http"

type Router interface {
	http.Handler
	Get(pattern string, h http.HandlerFunc)
	Handle(pattern string, h http.Handler)
	Route(pattern string, fn func(r Router)) Router
	Mount(pattern string, h http.Handler)
	NotFound(h http.HandlerFunc)
	MethodNotAllowed(h http.HandlerFunc)
}

type Mux struct{}

func NewRouter() *Mux                                           { return &Mux{} }
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
func (m *Mux) Get(pattern string, h http.HandlerFunc)           {}
func (m *Mux) Handle(pattern string, h http.Handler)            {}
func (m *Mux) Route(pattern string, fn func(r Router)) Router   { return m }
func (m *Mux) Mount(pattern string, handler http.Handler)       {}
func (m *Mux) NotFound(handlerFn http.HandlerFunc)              {}
func (m *Mux) MethodNotAllowed(handlerFn http.HandlerFunc)      {}
