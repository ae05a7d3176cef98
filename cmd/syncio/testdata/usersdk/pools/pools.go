// Package pools builds the SDK's pool on a request path and waits for it
// to drain; findings only with the user's client and wait rows.
package pools

import (
	"net/http"

	"example.com/usersdk/sdk"
)

var shared = sdk.NewPool("mail:25") // built at start-up: no finding

func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/send", send)
}

func send(w http.ResponseWriter, r *http.Request) {
	p := sdk.NewPool("mail:25") // SIO004 with the client row
	p.Drain()                   // SIO005 with the wait row
	shared.Drain()              // SIO005 with the wait row
	w.WriteHeader(http.StatusAccepted)
}
