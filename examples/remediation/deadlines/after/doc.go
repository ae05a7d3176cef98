// Package after bounds every edge: its own http.Server with
// ReadHeaderTimeout and IdleTimeout (and no WriteTimeout, which would cut
// off streams: a streaming handler sets its own with
// http.ResponseController), an upstream client with a Timeout as a floor
// and a per-call context.WithTimeout, and a dialer with a Timeout. The
// test shows the server closing a client that never finishes its headers,
// and an idle keep-alive connection.
package after
