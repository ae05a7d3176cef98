// Package rootfixes checks the request-context expression that suggested
// fixes use in the httprouter, connect-go, gRPC streaming and hertz roots.
package rootfixes

import (
	"context"
	"database/sql"
	"net/http"

	"connectrpc.com/connect"
	"github.com/cloudwego/hertz/pkg/app"
	"github.com/julienschmidt/httprouter"
	"google.golang.org/grpc"

	"grpcdemo/pb"
)

var db *sql.DB

func Router(w http.ResponseWriter, req *http.Request, ps httprouter.Params) {
	_ = db.Ping()                                            // want `Ping blocks`
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `is given context.Background\(\)`
}

type Msg struct{}

type GreetServer struct{}

func (s *GreetServer) Greet(ctx context.Context, req *connect.Request[Msg]) (*connect.Response[Msg], error) {
	_ = db.Ping() // want `Ping blocks`
	return nil, nil
}

func (s *GreetServer) Watch(c context.Context, req *connect.Request[Msg], stream *connect.ServerStream[Msg]) error {
	return db.Ping() // want `Ping blocks`
}

// Unnamed has no usable context: no fix.
func (s *GreetServer) Unnamed(_ context.Context, stream *connect.BidiStream[Msg, Msg]) error {
	return db.Ping() // want `Ping blocks`
}

type Greeter struct{ pb.UnimplementedGreeterServer }

func (g *Greeter) SayHellos(req *pb.HelloRequest, stream pb.Greeter_SayHellosServer) error {
	_, _ = db.QueryContext(context.TODO(), "SELECT 1") // want `is given context.TODO\(\)`
	return db.Ping()                                   // want `Ping blocks`
}

func (g *Greeter) BidiHello(srv grpc.BidiStreamingServer[pb.HelloRequest, pb.HelloReply]) error {
	return db.Ping() // want `Ping blocks`
}

func Hertz(ctx context.Context, c *app.RequestContext) {
	_ = db.Ping() // want `Ping blocks`
}
