// Package httprouter is a minimal stand-in for
// github.com/julienschmidt/httprouter: only the types the analyzer
// recognises.
package httprouter

import "net/http"

type Param struct{ Key, Value string }

type Params []Param

func (ps Params) ByName(name string) string { return "" }

type Handle func(http.ResponseWriter, *http.Request, Params)

// Router holds the handlers of unmatched requests and panics, as
// httprouter's does.
type Router struct {
	NotFound         http.Handler
	MethodNotAllowed http.Handler
	PanicHandler     func(http.ResponseWriter, *http.Request, interface{})
}

func New() *Router                               { return &Router{} }
func (r *Router) GET(path string, handle Handle) {}
