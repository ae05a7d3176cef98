package main

import (
	"database/sql"
	"net/http"

	"doubles/api"
	"doubles/model"
	"doubles/store"
	"doubles/tests"
)

func main() {
	db, _ := sql.Open("postgres", "")
	a := &api.API{Store: store.New(db)}
	http.HandleFunc("/get", a.Get)
	// Wired only to compile the doubles in; neither is followed.
	var fake model.Store = &store.FakeStore{}
	_ = fake
	_ = tests.MockStore{}
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
