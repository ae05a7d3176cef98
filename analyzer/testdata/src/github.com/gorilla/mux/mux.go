// Package mux is a minimal stand-in for github.com/gorilla/mux.
package mux

import "net/http"

// Router holds the handlers of unmatched requests, as gorilla's does.
type Router struct {
	NotFoundHandler         http.Handler
	MethodNotAllowedHandler http.Handler
}

func NewRouter() *Router                                             { return &Router{} }
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {}
func (r *Router) Handle(path string, h http.Handler) *Route          { return &Route{} }
func (r *Router) HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) *Route {
	return &Route{}
}
func (r *Router) PathPrefix(tpl string) *Route { return &Route{} }

type Route struct{}

func (r *Route) Handler(h http.Handler) *Route { return r }
func (r *Route) Subrouter() *Router            { return &Router{} }
