// Package grpc is a minimal stand-in for google.golang.org/grpc: clients,
// and the server stream interfaces (stream.go).
package grpc

type ClientConn struct{}

type DialOption interface{}

func Dial(target string, opts ...DialOption) (*ClientConn, error)      { return &ClientConn{}, nil }
func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }
