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

// Waiter is how the pool waits for its connections to drain, set at
// start-up: syncio cannot see what it waits on.
type Waiter interface{ Wait() }

// Pool stands for a client that owns connections: NewPool builds them,
// which syncio cannot see without a row that names it.
type Pool struct {
	addr  string
	drain Waiter
}

// NewPool is the constructor a user's client row names.
func NewPool(addr string) *Pool { return &Pool{addr: addr} }

// Drain is the wait a user's wait row names: it waits for the pool's
// connections with no way to be cancelled.
func (p *Pool) Drain() {
	if p.drain != nil {
		p.drain.Wait()
	}
}
