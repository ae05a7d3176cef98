// Package blind registers routes whose handlers are kept in struct fields,
// which syncio cannot follow, and has no request root of its own.
package blind

import "net/http"

type Handlers struct{ List, Show http.HandlerFunc }

func Routes(mux *http.ServeMux, h Handlers) {
	mux.HandleFunc("/list", h.List)
	mux.Handle("/show", h.Show)
}
