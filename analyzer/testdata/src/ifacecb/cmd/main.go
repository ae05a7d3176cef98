package main

import (
	"net/http"

	"ifacecb/api"
	"ifacecb/persistence"
)

func main() {
	a := &api.API{DS: persistence.New()}
	http.HandleFunc("/star", a.Star)
	http.HandleFunc("/touch", a.Touch)
	http.HandleFunc("/later", a.Later)
	http.HandleFunc("/async", a.Async)
	http.HandleFunc("/quick", a.Quick)
	http.HandleFunc("/queue", a.Queue)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
