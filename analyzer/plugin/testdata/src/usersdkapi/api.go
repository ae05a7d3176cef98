// Package usersdkapi calls a user's SDK on a request path; the SDK's row
// comes from the golangci-lint settings.
package usersdkapi

import (
	"net/http"

	"example.com/usersdk/sdk"
)

var client = &sdk.Client{}

func items(w http.ResponseWriter, r *http.Request) {
	_, _ = w.Write([]byte(client.Fetch(r.URL.Path))) // want `^example.com/usersdk/sdk.\(\*Client\).Fetch waits for the SDK's server without the request context; use client.FetchContext\(ctx, key\) \(SIO001\)$`
}
