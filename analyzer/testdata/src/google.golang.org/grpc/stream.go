package grpc

import "context"

// ServerStream and the generic stream interfaces stand in for the server
// side of streaming RPCs.
type ServerStream interface {
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ClientStream is the client side: its Context is not a request context.
type ClientStream interface {
	Context() context.Context
	CloseSend() error
}

type ServerStreamingServer[Res any] interface {
	Send(*Res) error
	ServerStream
}

type ClientStreamingServer[Req any, Res any] interface {
	Recv() (*Req, error)
	SendAndClose(*Res) error
	ServerStream
}

type BidiStreamingServer[Req any, Res any] interface {
	Recv() (*Req, error)
	Send(*Res) error
	ServerStream
}
