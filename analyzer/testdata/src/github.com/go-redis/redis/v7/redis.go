// Package redis is a minimal stand-in for go-redis v7.4.1: commands are
// methods of an embedded func type, and the client's WithContext context
// is used for them.
package redis

import "context"

type Options struct{ Addr string }

type StringCmd struct{}

type Cmd struct{}

type Cmder interface{}

type cmdable func(cmd Cmder) error

func (c cmdable) Get(key string) *StringCmd { return nil }

type baseClient struct{}

type Client struct {
	*baseClient
	cmdable
	ctx context.Context
}

func NewClient(opt *Options) *Client { return &Client{} }

func (c *Client) WithContext(ctx context.Context) *Client { return c }

func (c *Client) Do(args ...interface{}) *Cmd { return nil }

func (c *Client) DoContext(ctx context.Context, args ...interface{}) *Cmd { return nil }
