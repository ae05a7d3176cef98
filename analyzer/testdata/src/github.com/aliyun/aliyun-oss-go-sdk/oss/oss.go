// Package oss is a minimal stand-in for aliyun-oss-go-sdk v3.0: Bucket
// methods take options, oss.WithContext among them.
package oss

import (
	"context"
	"io"
)

type Option func(map[string]interface{}) error

func WithContext(ctx context.Context) Option { return nil }

func ContentType(value string) Option { return nil }

type Client struct{}

type Bucket struct{}

func New(endpoint, accessKeyID, accessKeySecret string) (*Client, error) { return &Client{}, nil }

func (c Client) Bucket(name string) (*Bucket, error) { return &Bucket{}, nil }

func (b Bucket) PutObject(objectKey string, reader io.Reader, options ...Option) error { return nil }
