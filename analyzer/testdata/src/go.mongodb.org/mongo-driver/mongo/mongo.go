// Package mongo is a minimal stand-in for mongo-driver v1.17.
package mongo

import "context"

type Client struct{}

type Collection struct{}

func NewClient() (*Client, error)                                             { return &Client{}, nil }
func Connect(ctx context.Context) (*Client, error)                            { return &Client{}, nil }
func (c *Client) Connect(ctx context.Context) error                           { return nil }
func (c *Client) Collection(name string) *Collection                          { return &Collection{} }
func (c *Collection) DeleteOne(ctx context.Context, filter interface{}) error { return nil }
