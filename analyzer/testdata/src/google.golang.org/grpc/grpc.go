// Package grpc is a minimal stand-in for google.golang.org/grpc clients.
package grpc

type ClientConn struct{}

type DialOption interface{}

func Dial(target string, opts ...DialOption) (*ClientConn, error)      { return &ClientConn{}, nil }
func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }
