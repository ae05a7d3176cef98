// Package served registers one handler that syncio follows.
package served

import "net/http"

func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/users", users)
}

func users(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://example.com/") // finding: SIO001
	if err == nil {
		resp.Body.Close()
	}
}
