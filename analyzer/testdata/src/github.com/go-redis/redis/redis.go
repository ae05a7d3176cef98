// Package redis is a minimal stand-in for go-redis v6.15.9: commands are
// pointer methods of an embedded cmdable, WithContext only stores the
// context.
package redis

import "context"

type Options struct{ Addr string }

type StringCmd struct{}

type Cmd struct{}

type cmdable struct{ process func() error }

func (c *cmdable) Get(key string) *StringCmd { return nil }

type baseClient struct{}

func (c *baseClient) Do(args ...interface{}) *Cmd { return nil }

type Client struct {
	baseClient
	cmdable
	ctx context.Context
}

func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) WithContext(ctx context.Context) *Client { return c }
