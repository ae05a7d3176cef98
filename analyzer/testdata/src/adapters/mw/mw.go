// Package mw has an adapter in another package than the handlers.
package mw

import "net/http"

type Deps struct{ Name string }

// Ctx is the service's own request type.
type Ctx struct {
	W http.ResponseWriter
	R *http.Request
}

// Wrap turns a func(Deps, *Ctx) into a net/http handler.
func Wrap(d Deps, h func(Deps, *Ctx)) http.HandlerFunc { // want Wrap:`^adapter\(1\)$`
	return func(w http.ResponseWriter, r *http.Request) {
		h(d, &Ctx{W: w, R: r})
	}
}
