package main

import (
	"net/http"

	"prec/idlectx/unbound"
)

func main() {
	h := &unbound.Handlers{}
	http.HandleFunc("/get", h.Get)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
