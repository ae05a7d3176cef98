// Package embedmiss embeds a file that does not exist.
package embedmiss

import (
	_ "embed"
	"net/http"
)

//go:embed missing.txt
var data string

func Handler(w http.ResponseWriter, r *http.Request) {
	http.Get("http://example.com/" + data) // finding: SIO001
}
