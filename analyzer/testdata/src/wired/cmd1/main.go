// Two mains import the wiring package: the findings are reported once,
// in app.
package main

import (
	"net/http"

	"wired/app"
)

func main() { _ = http.ListenAndServe(":8080", app.Routes(nil)) }
