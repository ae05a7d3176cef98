// Package httpc reduces a widely used client helper: the request is built
// with http.NewRequest, given headers, then the caller's context with
// req.WithContext(ctx) before client.Do. No SIO001 (precision class 1 of
// issue 10); Legacy never attaches one and stays SIO001.
package httpc

import (
	"context"
	"net/http"
)

// Client sends JSON requests.
type Client struct{ HC *http.Client }

// Get sends a GET under ctx.
func (c *Client) Get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req = req.WithContext(ctx)
	return c.HC.Do(req)
}

// Legacy sends a GET with no context.
func (c *Client) Legacy(url string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.HC.Do(req)
}
