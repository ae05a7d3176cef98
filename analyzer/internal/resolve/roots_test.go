package resolve

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/standin"
)

// frameworks are stand-ins for the packages whose handler shapes are
// roots: roots are recognised by import path and type name only, so a
// type of the right name at the right path is all a test needs.
var frameworks = map[string]string{
	"context":                             `package context; type Context interface{ Done() <-chan struct{} }`,
	"net/http":                            `package http; type ResponseWriter interface{ Write([]byte) (int, error) }; type Request struct{}; type HandlerFunc func(ResponseWriter, *Request)`,
	"github.com/julienschmidt/httprouter": `package httprouter; type Params []string`,
	"github.com/cloudwego/hertz/pkg/app":  `package app; type RequestContext struct{}`,
	"github.com/gin-gonic/gin":            `package gin; type Context struct{}`,
	"github.com/labstack/echo/v4":         `package echo; type Context interface{ String(int, string) error }`,
	"github.com/labstack/echo/v5":         `package echo; type Context struct{}`,
	"github.com/gofiber/fiber/v2":         `package fiber; type Ctx struct{}`,
	"github.com/gofiber/fiber/v3":         `package fiber; type Ctx interface{ Send([]byte) error }`,
	"connectrpc.com/connect": `package connect
type Request[T any] struct{ Msg *T }
type Response[T any] struct{}
type ClientStream[T any] struct{}
type ServerStream[T any] struct{}
type BidiStream[T, U any] struct{}`,
	"github.com/bufbuild/connect-go": `package connect
type Request[T any] struct{ Msg *T }
type Response[T any] struct{}`,
	"google.golang.org/grpc": `package grpc
import "context"
type ServerStream interface{ Context() context.Context; SendMsg(any) error }`,
}

// check type-checks src as the package at path against the stand-ins
// and extra packages (path → source).
func check(t *testing.T, path, src string, extra map[string]string) (*ast.File, *types.Info) {
	t.Helper()
	return checkIn(t, token.NewFileSet(), path, src, extra)
}

// checkIn is check with the file set given.
func checkIn(t *testing.T, fset *token.FileSet, path, src string, extra map[string]string) (*ast.File, *types.Info) {
	t.Helper()
	srcs := maps.Clone(frameworks)
	maps.Copy(srcs, extra)
	return standin.Check(t, fset, path, src, srcs)
}

// funcs type-checks src against the stand-ins and returns its declared
// functions and methods by name ("F", "S.M").
func funcs(t *testing.T, src string) map[string]*types.Func {
	t.Helper()
	f, info := check(t, "p", src, nil)
	out := map[string]*types.Func{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil {
			x := fd.Recv.List[0].Type
			if s, ok := x.(*ast.StarExpr); ok {
				x = s.X
			}
			name = x.(*ast.Ident).Name + "." + name
		}
		out[name] = info.Defs[fd.Name].(*types.Func)
	}
	return out
}

// TestRoots: each framework's handler shape is a root of its kind, gRPC
// methods only on a type embedding a generated Unimplemented*Server, and
// the near misses (a value where a pointer is expected, a missing error
// result, no context first) are no roots.
func TestRoots(t *testing.T) {
	t.Parallel()
	const src = `package p

import (
	"context"
	"net/http"

	"connectrpc.com/connect"
	"github.com/cloudwego/hertz/pkg/app"
	oldconnect "github.com/bufbuild/connect-go"
	"github.com/gin-gonic/gin"
	fiber2 "github.com/gofiber/fiber/v2"
	fiber3 "github.com/gofiber/fiber/v3"
	"github.com/julienschmidt/httprouter"
	echo4 "github.com/labstack/echo/v4"
	echo5 "github.com/labstack/echo/v5"
	"google.golang.org/grpc"
)

type Req struct{}
type Resp struct{}

func HTTP(w http.ResponseWriter, r *http.Request)                         {}
func HTTPValueRequest(w http.ResponseWriter, r http.Request)              {}
func Router(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {}
func Hertz(ctx context.Context, c *app.RequestContext)                    {}
func Gin(c *gin.Context)                                                  {}
func GinValue(c gin.Context)                                              {}
func Echo4(c echo4.Context) error                                         { return nil }
func Echo4NoError(c echo4.Context)                                        {}
func Echo5(c *echo5.Context) error                                        { return nil }
func Fiber2(c *fiber2.Ctx) error                                          { return nil }
func Fiber3(c fiber3.Ctx) error                                           { return nil }

func Unary(ctx context.Context, r *connect.Request[Req]) (*connect.Response[Resp], error)       { return nil, nil }
func UnaryOld(ctx context.Context, r *oldconnect.Request[Req]) (*oldconnect.Response[Resp], error) { return nil, nil }
func ClientStream(ctx context.Context, s *connect.ClientStream[Req]) (*connect.Response[Resp], error) { return nil, nil }
func ServerStream(ctx context.Context, r *connect.Request[Req], s *connect.ServerStream[Resp]) error { return nil }
func Bidi(ctx context.Context, s *connect.BidiStream[Req, Resp]) error                          { return nil }
func UnaryNoContext(r *connect.Request[Req]) (*connect.Response[Resp], error)                 { return nil, nil }

type UnimplementedFooServer struct{}
type Foo_ListServer interface {
	Send(*Resp) error
	grpc.ServerStream
}
type Foo_ChatServer interface {
	Recv() (*Req, error)
	grpc.ServerStream
}
type ownStream interface{ Context() context.Context }

type Server struct{ UnimplementedFooServer }

func (s *Server) Get(ctx context.Context, r *Req) (*Resp, error)  { return nil, nil }
func (s *Server) GetValue(ctx context.Context, r Req) (*Resp, error) { return nil, nil }
func (s *Server) List(r *Req, stream Foo_ListServer) error        { return nil }
func (s *Server) Chat(stream Foo_ChatServer) error                { return nil }
func (s *Server) Own(stream ownStream) error                      { return nil }

type Plain struct{}

func (p *Plain) Get(ctx context.Context, r *Req) (*Resp, error) { return nil, nil }
func (p *Plain) List(r *Req, stream Foo_ListServer) error       { return nil }

func Helper(ctx context.Context) error { return nil }
`
	fns := funcs(t, src)
	cases := []struct {
		name   string
		sig    RootKind // SignatureRoot
		unary  bool     // GRPCRoot
		stream bool     // GRPCStreamRoot
		decl   RootKind // DeclRoot, unmarked
	}{
		{"HTTP", RootHTTP, false, false, RootHTTP},
		{"HTTPValueRequest", NotRoot, false, false, NotRoot},
		{"Router", RootHTTPRouter, false, false, RootHTTPRouter},
		{"Hertz", RootHertz, false, false, RootHertz},
		{"Gin", RootGin, false, false, RootGin},
		{"GinValue", NotRoot, false, false, NotRoot},
		{"Echo4", RootEcho, false, false, RootEcho},
		{"Echo4NoError", NotRoot, false, false, NotRoot},
		{"Echo5", RootEcho, false, false, RootEcho},
		{"Fiber2", RootFiberV2, false, false, RootFiberV2},
		{"Fiber3", RootFiberV3, false, false, RootFiberV3},
		{"Unary", RootConnect, false, false, RootConnect},
		{"UnaryOld", RootConnect, false, false, RootConnect},
		{"ClientStream", RootConnect, false, false, RootConnect},
		{"ServerStream", RootConnect, false, false, RootConnect},
		{"Bidi", RootConnect, false, false, RootConnect},
		{"UnaryNoContext", NotRoot, false, false, NotRoot},
		{"Server.Get", NotRoot, true, false, RootGRPC},
		{"Server.GetValue", NotRoot, false, false, NotRoot},
		{"Server.List", NotRoot, false, true, RootGRPCStream},
		{"Server.Chat", NotRoot, false, true, RootGRPCStream},
		{"Server.Own", NotRoot, false, false, NotRoot},
		{"Plain.Get", NotRoot, false, false, NotRoot},
		{"Plain.List", NotRoot, false, false, NotRoot},
		{"Helper", NotRoot, false, false, NotRoot},
	}
	for _, c := range cases {
		fn := fns[c.name]
		if fn == nil {
			t.Fatalf("no function %s in the source", c.name)
		}
		sig := fn.Type().(*types.Signature)
		if got := SignatureRoot(sig); got != c.sig {
			t.Errorf("SignatureRoot(%s) = %d, want %d", c.name, got, c.sig)
		}
		if got := GRPCRoot(fn); got != c.unary {
			t.Errorf("GRPCRoot(%s) = %v, want %v", c.name, got, c.unary)
		}
		if got := GRPCStreamRoot(fn); got != c.stream {
			t.Errorf("GRPCStreamRoot(%s) = %v, want %v", c.name, got, c.stream)
		}
		if got := DeclRoot(fn, false); got != c.decl {
			t.Errorf("DeclRoot(%s, unmarked) = %d, want %d", c.name, got, c.decl)
		}
		// A handler directive makes any declaration a root.
		if got := DeclRoot(fn, true); got != RootCustom {
			t.Errorf("DeclRoot(%s, marked) = %d, want RootCustom", c.name, got)
		}
	}
	if got := DeclRoot(nil, false); got != NotRoot {
		t.Errorf("DeclRoot(nil, unmarked) = %d, want NotRoot", got)
	}
	if got := SignatureRoot(nil); got != NotRoot {
		t.Errorf("SignatureRoot(nil) = %d, want NotRoot", got)
	}
}

// TestIsStreamContext: grpc.ServerStream's Context method, reached through
// a generated stream interface that embeds it, gives the request context;
// a Context method of the program's own is not grpc's.
func TestIsStreamContext(t *testing.T) {
	t.Parallel()
	fns := funcs(t, `package p

import (
	"context"

	"google.golang.org/grpc"
)

type X_ListServer interface {
	Send(int) error
	grpc.ServerStream
}
type own interface{ Context() context.Context }

func A(s X_ListServer) {}
func B(s own)          {}
`)
	for name, want := range map[string]bool{"A": true, "B": false} {
		p := fns[name].Type().(*types.Signature).Params().At(0).Type()
		obj, _, _ := types.LookupFieldOrMethod(p, false, nil, "Context")
		m, _ := obj.(*types.Func)
		if got := IsStreamContext(m); got != want {
			t.Errorf("IsStreamContext(%s's stream.Context) = %v, want %v", name, got, want)
		}
	}
	if IsStreamContext(nil) {
		t.Error("IsStreamContext(nil) = true, want false")
	}
}
