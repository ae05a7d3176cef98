// A main above app: the findings are reported once, in app.
package main

import (
	"net/http"

	"genslots/app"
	"genslots/router"
)

func main() {
	r := router.New(func(w http.ResponseWriter, req *http.Request) *router.Event { return &router.Event{W: w, R: req} })
	app.Register(r)
	app.Wire()
	defer app.Shutdown.Drain(0)
	mux := r.BuildMux()
	mux.Handle("/chained/", r.BuildChained())
	mux.Handle("/audit", app.Requests.Handler("/audit"))
	mux.HandleFunc("/serve", app.Serve)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", mux)
}
