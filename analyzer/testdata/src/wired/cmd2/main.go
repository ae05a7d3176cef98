// Two mains import the wiring package: the findings are reported once,
// in app.
package main

import (
	"net/http"

	"wired/app"
)

//syncio:ignore SIO008 -- a fixture's main: what it tests is behind the handler, not the server
func main() { _ = http.ListenAndServe(":8080", app.Routes(nil)) }
