// Package routing is a registrar in another package: Add registers a
// closure that calls the func it is given, so its callers' arguments
// serve requests.
package routing

import "net/http"

func Add(mux *http.ServeMux, path string, f func(*http.Request) error) { // want Add:`registrar\(2\) net/http`
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		if err := f(r); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
	})
}
