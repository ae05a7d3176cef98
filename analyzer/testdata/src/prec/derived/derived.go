// Package derived: a context made by a helper that wraps its parameter
// (go-oidc's ClientContext, a service's GetOidcContext: WithValue around
// the caller's context) is still the request's when the request's
// context goes in, and still dropped when context.Background() does
// (issue 35, class 5).
package derived

import (
	"context"
	"net/http"
)

type clientKey struct{}

// ClientContext keeps an HTTP client in the context, as go-oidc's does.
func ClientContext(ctx context.Context, c *http.Client) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// GetOidcContext is the service's own wrapper around it.
func GetOidcContext(ctx context.Context) context.Context {
	return ClientContext(ctx, http.DefaultClient)
}

// Verify fetches keys with the context it is given.
func Verify(ctx context.Context, token string) error { // want Verify:`^io\(net/http.\(\*Client\).Do\)$`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://idp/keys", nil)
	if err != nil {
		return err
	}
	c, _ := ctx.Value(clientKey{}).(*http.Client)
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Wrapped verifies under the request's context, wrapped twice: silent.
func Wrapped(w http.ResponseWriter, r *http.Request) {
	_ = Verify(GetOidcContext(r.Context()), r.FormValue("t"))
}

// WrappedLocal keeps the wrapped context in a local first: silent.
func WrappedLocal(w http.ResponseWriter, r *http.Request) {
	ctx := GetOidcContext(r.Context())
	_ = Verify(ctx, r.FormValue("t"))
}

// WrappedBackground wraps context.Background(): SIO002 where it is given.
func WrappedBackground(w http.ResponseWriter, r *http.Request) {
	_ = Verify(GetOidcContext(context.Background()), r.FormValue("t")) // want `GetOidcContext is given context.Background\(\)`
}
