// Package connectdemo covers connect-go handlers (connectrpc.com/connect
// and github.com/bufbuild/connect-go) as request roots: unary and the three
// streaming shapes, as methods, functions and func literals.
package connectdemo

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"connectrpc.com/connect"
	bufconnect "github.com/bufbuild/connect-go"
)

type Msg struct{}

var db *sql.DB

type GreetServer struct{}

func (s *GreetServer) Greet(ctx context.Context, req *connect.Request[Msg]) (*connect.Response[Msg], error) {
	_, err := http.Get("http://example.com") // want `^net/http.Get blocks without the request context`
	_, _ = db.QueryContext(ctx, "SELECT 1")
	_, _ = db.QueryContext(context.TODO(), "SELECT 1") // want `QueryContext is given context.TODO\(\)`
	return connect.NewResponse(&Msg{}), err
}

func (s *GreetServer) Upload(ctx context.Context, stream *connect.ClientStream[Msg]) (*connect.Response[Msg], error) {
	for stream.Receive() {
		time.Sleep(time.Millisecond) // want `time.Sleep waits`
	}
	return connect.NewResponse(&Msg{}), nil
}

func (s *GreetServer) Watch(ctx context.Context, req *connect.Request[Msg], stream *connect.ServerStream[Msg]) error {
	_ = db.PingContext(ctx)
	return db.Ping() // want `database/sql.\(\*DB\).Ping blocks`
}

func (s *GreetServer) Chat(ctx context.Context, stream *connect.BidiStream[Msg, Msg]) error {
	_, err := db.Exec("UPDATE") // want `database/sql.\(\*DB\).Exec blocks`
	return err
}

// OldGreet is a function on the older github.com/bufbuild/connect-go path.
func OldGreet(ctx context.Context, req *bufconnect.Request[Msg]) (*bufconnect.Response[Msg], error) {
	time.Sleep(time.Second) // want `time.Sleep waits`
	return nil, nil
}

var handler = connect.NewUnaryHandler("/greet.v1.GreetService/Greet",
	func(ctx context.Context, req *connect.Request[Msg]) (*connect.Response[Msg], error) {
		return nil, db.Ping() // want `Ping blocks`
	})

// Request and Response have connect's type names in another package.
type Request[T any] struct{ Msg *T }
type Response[T any] struct{ Msg *T }

// Local has the unary shape with local types: not a root.
func Local(ctx context.Context, req *Request[Msg]) (*Response[Msg], error) { // want Local:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil, nil
}

// NoCtx lacks the context parameter: not a root.
func NoCtx(req *connect.Request[Msg]) (*connect.Response[Msg], error) { // want NoCtx:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil, nil
}

// PlainResult returns *Msg, not *connect.Response: not a root.
func (s *GreetServer) PlainResult(ctx context.Context, req *connect.Request[Msg]) (*Msg, error) { // want PlainResult:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil, nil
}

// BidiWithResponse has a bidi stream but the client-stream results: not a
// root.
func (s *GreetServer) BidiWithResponse(ctx context.Context, stream *connect.BidiStream[Msg, Msg]) (*connect.Response[Msg], error) { // want BidiWithResponse:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil, nil
}
