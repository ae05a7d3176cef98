// want package:`holds\(1\)`

// Package grpcstream covers streaming gRPC server methods as request
// roots: server streaming (req, stream) and client or bidi streaming
// (stream), on a type that embeds a generated Unimplemented*Server.
package grpcstream

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"google.golang.org/grpc"

	"grpcdemo/pb"
)

var db *sql.DB

type Greeter struct {
	pb.UnimplementedGreeterServer
}

// SayHellos is server streaming with the older generated stream interface.
func (g *Greeter) SayHellos(req *pb.HelloRequest, stream pb.Greeter_SayHellosServer) error {
	_, _ = http.Get("http://example.com/" + req.Name) // want `^net/http.Get blocks without the request context`
	_, _ = db.QueryContext(stream.Context(), "SELECT 1")
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `QueryContext is given context.Background\(\)`
	return stream.Send(&pb.HelloReply{})
}

// LotsOfGreetings is client streaming with the newer alias of
// grpc.ClientStreamingServer.
func (g *Greeter) LotsOfGreetings(stream pb.Greeter_LotsOfGreetingsServer) error {
	time.Sleep(time.Second) // want `time.Sleep waits`
	return stream.SendAndClose(&pb.HelloReply{})
}

// BidiHello is bidi streaming with the generic interface spelled out.
func (g Greeter) BidiHello(stream grpc.BidiStreamingServer[pb.HelloRequest, pb.HelloReply]) error {
	ctx := stream.Context()
	_ = db.PingContext(ctx)
	tctx, cancel := context.WithTimeout(context.TODO(), time.Second)
	defer cancel()
	_ = db.PingContext(tctx) // want `PingContext is given tctx \(a context derived from context.TODO\(\)\)`
	return db.Ping()         // want `database/sql.\(\*DB\).Ping blocks`
}

// Plain has the streaming shape but embeds no Unimplemented*Server: not a
// root.
type Plain struct{}

func (p *Plain) SayHellos(req *pb.HelloRequest, stream pb.Greeter_SayHellosServer) error { // want SayHellos:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil
}

// Sender is a struct, not a stream interface.
type Sender struct{}

func (s *Sender) Context() context.Context { return context.Background() }

// localStream has a Context method that is not grpc.ServerStream's.
type localStream interface {
	Context() context.Context
}

func (g *Greeter) ToStruct(req *pb.HelloRequest, s *Sender) error { // want ToStruct:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil
}

func (g *Greeter) ToLocal(s localStream) error { // want ToLocal:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil
}

// ToClient takes the client side of a stream: not a server method.
func (g *Greeter) ToClient(s grpc.ClientStream) error { // want ToClient:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil
}

// ByValue takes the request by value: not the generated shape.
func (g *Greeter) ByValue(req pb.HelloRequest, stream pb.Greeter_SayHellosServer) error { // want ByValue:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil
}
