// Package azblob is a minimal stand-in for the Azure Blob SDK.
package azblob

type Client struct{}

func NewClient(url string, cred any, o any) (*Client, error)         { return &Client{}, nil }
func NewClientFromConnectionString(s string, o any) (*Client, error) { return &Client{}, nil }
