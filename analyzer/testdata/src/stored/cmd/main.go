// A main above app: the findings are reported once, in app.
package main

import (
	"net/http"

	"stored/app"
	"stored/router"
)

func main() {
	g := &router.Group{}
	app.Register(g)
	//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
	_ = http.ListenAndServe(":8080", g)
}
