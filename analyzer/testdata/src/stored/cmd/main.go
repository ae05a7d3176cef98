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
	_ = http.ListenAndServe(":8080", g)
}
