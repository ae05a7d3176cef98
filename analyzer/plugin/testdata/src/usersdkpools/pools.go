// Package usersdkpools builds a user's SDK pool on a request path and
// waits for it to drain; the SDK's client and wait rows come from the
// golangci-lint settings.
package usersdkpools

import (
	"net/http"

	"example.com/usersdk/sdk"
)

var shared = sdk.NewPool("mail:25") // built at start-up: no finding

func send(w http.ResponseWriter, r *http.Request) {
	p := sdk.NewPool("mail:25") // want `^sdk.NewPool builds the SDK's SMTP pool on every request`
	p.Drain()                   // want `^example.com/usersdk/sdk.\(\*Pool\).Drain waits with no way to cancel it; use p.DrainContext\(ctx\) \(SIO005\)$`
	shared.Drain()              // want `Drain waits with no way to cancel it`
	w.WriteHeader(http.StatusAccepted)
}
