// Package memcache is a minimal stand-in for gomemcache's: a Client keeps
// its own idle connections (docs/rules/libraries.md).
package memcache

type Item struct {
	Key   string
	Value []byte
}

type Client struct{ servers []string }

func New(server ...string) *Client              { return &Client{servers: server} }
func (c *Client) Get(key string) (*Item, error) { return nil, nil }
