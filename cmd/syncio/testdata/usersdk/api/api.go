// Package api calls the SDK on a request path.
package api

import (
	"net/http"

	"example.com/usersdk/sdk"
)

var client = &sdk.Client{}

func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/items", items)
}

func items(w http.ResponseWriter, r *http.Request) {
	_, _ = w.Write([]byte(client.Fetch(r.URL.Path))) // finding only with the user's row
}
