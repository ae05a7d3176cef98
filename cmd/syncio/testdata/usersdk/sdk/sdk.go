// Package sdk stands for a user's SDK that the built-in table has no row
// for: Fetch does its I/O through a transport interface that syncio cannot
// follow, with no context; FetchContext takes one.
package sdk

import "context"

// Transport is the SDK's wire, set at start-up.
type Transport interface {
	RoundTrip(ctx context.Context, key string) string
}

type Client struct{ wire Transport }

// Fetch is the context-less call: the row given to -blocking names it.
func (c *Client) Fetch(key string) string { return c.wire.RoundTrip(nil, key) }

// FetchContext sends the request on ctx.
func (c *Client) FetchContext(ctx context.Context, key string) string {
	return c.wire.RoundTrip(ctx, key)
}
