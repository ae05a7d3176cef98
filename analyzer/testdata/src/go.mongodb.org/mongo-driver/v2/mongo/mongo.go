// Package mongo is a minimal stand-in for mongo-driver v2.
package mongo

type Client struct{}

func Connect() (*Client, error) { return &Client{}, nil }
