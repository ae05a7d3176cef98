// Package blindroutes registers routes whose handlers syncio cannot
// follow, and has no request root of its own: with StrictRoots, it is
// reported.
package blindroutes

import "net/http"

type deps struct{ list, show http.HandlerFunc }

func Routes(mux *http.ServeMux, d deps) {
	mux.HandleFunc("/list", d.list) // want `^this package registers routes \(2 registration calls\) but syncio found no request root in it`
	mux.HandleFunc("/show", d.show)
}
