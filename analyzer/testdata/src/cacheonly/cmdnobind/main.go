package main

import (
	"net/http"

	"cacheonly/appnobind"
	"cacheonly/svc"
)

func main() {
	appnobind.Svc = &svc.Service{}
	http.HandleFunc("/me", appnobind.Me)
	_ = http.ListenAndServe(":8080", nil)
}
