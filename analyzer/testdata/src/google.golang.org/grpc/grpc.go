// Package grpc is a minimal stand-in for google.golang.org/grpc: clients,
// and the server stream interfaces (stream.go).
package grpc

type ClientConn struct{}

type DialOption interface{}

func Dial(target string, opts ...DialOption) (*ClientConn, error)      { return &ClientConn{}, nil }
func NewClient(target string, opts ...DialOption) (*ClientConn, error) { return &ClientConn{}, nil }

// Server and ServiceRegistrar stand in for the server side of registration.
type Server struct{}

func NewServer(opts ...any) *Server { return &Server{} }

type ServiceRegistrar interface{ RegisterService(desc any, impl any) }

func (s *Server) RegisterService(desc any, impl any) {}

// CallOption configures a client call.
type CallOption interface{}
