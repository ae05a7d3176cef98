package main

import (
	"net/http"

	"prec/idlectx/unbound"
)

func main() {
	h := &unbound.Handlers{}
	http.HandleFunc("/get", h.Get)
	_ = http.ListenAndServe(":8080", nil)
}
