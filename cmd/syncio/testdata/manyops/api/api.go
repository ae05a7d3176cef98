// Package api serves one route that reaches every operation of store.
package api

import (
	"net/http"

	"example.com/manyops/store"
)

// Account is a request root.
func Account(w http.ResponseWriter, r *http.Request) {
	_ = store.Account(r.URL.Query().Get("id"))
}
