package main

import (
	"net/http"

	"cacheonly/appnobind"
	"cacheonly/svc"
)

func main() {
	appnobind.Svc = &svc.Service{}
	http.HandleFunc("/me", appnobind.Me)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
