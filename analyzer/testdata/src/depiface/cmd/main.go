// Command cmd wires the service: the library's Store is the service's own
// store.
package main

import (
	"database/sql"
	"net/http"

	"depiface/app"
	"depiface/store"
	"example.com/sessions"
)

func main() {
	db, _ := sql.Open("postgres", "")
	app.Manager = sessions.NewManager(store.New(db))
	http.HandleFunc("/profile", app.Profile)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", nil)
}
