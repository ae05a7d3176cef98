// Package ctxroots is analysed by TestRootContexts' probe, which reports
// how the ctx-flow classifies each probe argument in the new roots.
package ctxroots

import (
	"context"
	"net/http"
	"time"

	"connectrpc.com/connect"
	"github.com/cloudwego/hertz/pkg/app"
	"github.com/julienschmidt/httprouter"
	"google.golang.org/grpc"

	"grpcdemo/pb"
)

func probe(ctx context.Context) {}

type Greeter struct{ pb.UnimplementedGreeterServer }

func (g *Greeter) SayHellos(req *pb.HelloRequest, stream pb.Greeter_SayHellosServer) error {
	probe(stream.Context()) // want `request`
	ctx := stream.Context()
	probe(ctx) // want `request`
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	probe(tctx)                 // want `request`
	probe(context.Background()) // want `dropped`
	return nil
}

func (g *Greeter) BidiHello(stream grpc.BidiStreamingServer[pb.HelloRequest, pb.HelloReply]) error {
	probe(stream.Context()) // want `request`
	return nil
}

func (g *Greeter) LotsOfGreetings(stream pb.Greeter_LotsOfGreetingsServer) error {
	probe(stream.Context()) // want `request`
	return nil
}

// The client side of a stream and look-alike interfaces are not the
// request's.
type localStream interface{ Context() context.Context }

func others(c grpc.ClientStream, l localStream) {
	probe(c.Context()) // want `unknown`
	probe(l.Context()) // want `unknown`
}

func Router(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	probe(r.Context()) // want `request`
}

type Msg struct{}

func Greet(ctx context.Context, req *connect.Request[Msg]) (*connect.Response[Msg], error) {
	probe(ctx) // want `request`
	return nil, nil
}

func Hertz(ctx context.Context, c *app.RequestContext) {
	probe(ctx)            // want `request`
	probe(context.TODO()) // want `dropped`
}
