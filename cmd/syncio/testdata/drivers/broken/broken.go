// Package broken does not type-check.
package broken

import "net/http"

func Handler(w http.ResponseWriter, r *http.Request) {
	var n int = "not a number"
	_ = n
	http.Get("http://example.com/")
}
