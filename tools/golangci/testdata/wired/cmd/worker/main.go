// Two mains import the wiring: each finding is still reported once.
package main

import (
	"net/http"

	"example.com/wired/app"
)

//syncio:ignore SIO008 -- a fixture's main: the drivers are compared on the handlers' findings
func main() { _ = http.ListenAndServe("127.0.0.1:8080", app.Routes(nil)) }
