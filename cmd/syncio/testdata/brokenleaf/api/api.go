// Package api imports a package with a type error.
package api

import (
	"net/http"

	"example.com/brokenleaf/leaf"
	"example.com/brokenleaf/parseleaf"
)

// Handler reaches I/O through leaf and on its own.
func Handler(w http.ResponseWriter, r *http.Request) {
	_ = leaf.Fetch("http://example.com")          // finding: through leaf
	resp, err := http.Get("http://example.com/2") // finding: here
	if err == nil {
		resp.Body.Close()
	}
	_, _ = parseleaf.Dial() // finding: through parseleaf
}
