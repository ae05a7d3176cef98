// Package cos is a minimal stand-in for cos-go-sdk-v5 v0.7: every service
// method takes ctx, and NewClient keeps the given (or a zero) http.Client.
package cos

import (
	"context"
	"net/http"
)

type BaseURL struct{}

type ObjectService struct{}

type Client struct{ Object *ObjectService }

func NewClient(uri *BaseURL, httpClient *http.Client) *Client {
	return &Client{Object: &ObjectService{}}
}

func (s *ObjectService) Get(ctx context.Context, name string, opt interface{}) (*http.Response, error) {
	return nil, nil
}
