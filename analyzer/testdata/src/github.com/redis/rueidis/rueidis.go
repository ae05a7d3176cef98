// Package rueidis is a minimal stand-in for github.com/redis/rueidis:
// NewClient connects (docs/rules/libraries.md).
package rueidis

type ClientOption struct{ InitAddress []string }

type Client interface{ Close() }

type client struct{}

func (client) Close() {}

func NewClient(option ClientOption) (Client, error) { return client{}, nil }
