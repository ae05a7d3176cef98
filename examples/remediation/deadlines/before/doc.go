// Package before serves and calls with no deadline at the edges: the
// package-level ListenAndServe and a server with no ReadHeaderTimeout or
// IdleTimeout (a slow or idle client holds a connection and a goroutine
// for ever), an upstream client with no Timeout used under the request's
// context, which has no deadline, and a dialer with no Timeout. syncio
// reports each as SIO008. See ../after for the fix.
package before
