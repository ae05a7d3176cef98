package analyzer

import (
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"go/ast"
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// Framework import paths. The analyzer matches them by path and type name
// and never imports them.
const (
	pathHTTP    = "net/http"
	pathGin     = "github.com/gin-gonic/gin"
	pathEcho    = "github.com/labstack/echo/v4"
	pathEchoV5  = "github.com/labstack/echo/v5" // func(c *echo.Context) error
	pathFiberV2 = "github.com/gofiber/fiber/v2"
	pathFiberV3 = "github.com/gofiber/fiber/v3"
	pathContext = "context"

	pathHTTPRouter = "github.com/julienschmidt/httprouter"
	pathConnect    = "connectrpc.com/connect"
	pathConnectOld = "github.com/bufbuild/connect-go"
	pathGRPC       = "google.golang.org/grpc"
	pathHertzApp   = "github.com/cloudwego/hertz/pkg/app"
)

// rootKind says which framework a request root belongs to; it decides the
// request-context expression used by suggested fixes.
type rootKind int

const (
	notRoot rootKind = iota
	rootHTTP
	rootGin
	rootEcho
	rootFiberV2
	rootFiberV3
	rootGRPC
	rootCustom
	rootHTTPRouter // func(http.ResponseWriter, *http.Request, httprouter.Params)
	rootConnect    // connect-go unary and streaming handlers: ctx is the first param
	rootGRPCStream // gRPC streaming methods: the request context is stream.Context()
	rootHertz      // func(context.Context, *app.RequestContext)
)

func isErrorType(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

// isContextType reports whether t is context.Context itself.
func isContextType(t types.Type) bool { return named.Is(t, false, pathContext, "Context") }

// signatureRoot classifies a handler signature shared by functions and
// func literals. gRPC methods need the receiver and are handled apart.
func signatureRoot(sig *types.Signature) rootKind {
	if sig == nil {
		return notRoot
	}
	params, results := sig.Params(), sig.Results()
	switch {
	case params.Len() == 2 && results.Len() == 0 &&
		named.Is(params.At(0).Type(), false, pathHTTP, "ResponseWriter") &&
		named.Is(params.At(1).Type(), true, pathHTTP, "Request"):
		return rootHTTP
	case params.Len() == 3 && results.Len() == 0 &&
		named.Is(params.At(0).Type(), false, pathHTTP, "ResponseWriter") &&
		named.Is(params.At(1).Type(), true, pathHTTP, "Request") &&
		named.Is(params.At(2).Type(), false, pathHTTPRouter, "Params"):
		return rootHTTPRouter
	case params.Len() == 2 && results.Len() == 0 &&
		isContextType(params.At(0).Type()) && named.Is(params.At(1).Type(), true, pathHertzApp, "RequestContext"):
		return rootHertz
	case params.Len() == 1 && results.Len() == 0 && named.Is(params.At(0).Type(), true, pathGin, "Context"):
		return rootGin
	case connectRoot(params, results):
		return rootConnect
	case params.Len() == 1 && results.Len() == 1 && isErrorType(results.At(0).Type()):
		p := params.At(0).Type()
		switch {
		case named.Is(p, false, pathEcho, "Context"), named.Is(p, true, pathEchoV5, "Context"):
			return rootEcho
		case named.Is(p, true, pathFiberV2, "Ctx"):
			return rootFiberV2
		case named.Is(p, false, pathFiberV3, "Ctx"):
			return rootFiberV3
		}
	}
	return notRoot
}

// grpcRoot reports whether fn is a unary gRPC server method:
// (ctx context.Context, req *T) (*U, error) on a type that embeds a
// generated Unimplemented*Server.
func grpcRoot(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	p, r := sig.Params(), sig.Results()
	if p.Len() != 2 || r.Len() != 2 || !isContextType(p.At(0).Type()) || !isErrorType(r.At(1).Type()) {
		return false
	}
	if _, ok := types.Unalias(p.At(1).Type()).(*types.Pointer); !ok {
		return false
	}
	if _, ok := types.Unalias(r.At(0).Type()).(*types.Pointer); !ok {
		return false
	}
	return embedsUnimplemented(sig)
}

// embedsUnimplemented reports whether the receiver of sig is a struct that
// embeds a generated Unimplemented*Server, as gRPC service
// implementations do.
func embedsUnimplemented(sig *types.Signature) bool {
	if sig == nil || sig.Recv() == nil {
		return false
	}
	recv := types.Unalias(sig.Recv().Type())
	if ptr, ok := recv.(*types.Pointer); ok {
		recv = types.Unalias(ptr.Elem())
	}
	named, ok := recv.(*types.Named)
	if !ok {
		return false
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		ft := types.Unalias(f.Type())
		if ptr, ok := ft.(*types.Pointer); ok {
			ft = types.Unalias(ptr.Elem())
		}
		if n, ok := ft.(*types.Named); ok && n.Obj() != nil {
			name := n.Obj().Name()
			if strings.HasPrefix(name, "Unimplemented") && strings.HasSuffix(name, "Server") {
				return true
			}
		}
	}
	return false
}

// grpcStreamRoot reports whether fn is a streaming gRPC server method on a
// type that embeds a generated Unimplemented*Server: server streaming
// (req *T, stream X) error, or client and bidi streaming (stream X) error,
// where X is an interface whose Context method is grpc.ServerStream's (the
// generated X_YServer, or grpc.ServerStreamingServer[T],
// ClientStreamingServer[T, U] and BidiStreamingServer[T, U]).
func grpcStreamRoot(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	p, r := sig.Params(), sig.Results()
	if r.Len() != 1 || !isErrorType(r.At(0).Type()) {
		return false
	}
	switch p.Len() {
	case 1:
	case 2:
		if _, ok := types.Unalias(p.At(0).Type()).(*types.Pointer); !ok {
			return false
		}
	default:
		return false
	}
	return isServerStream(p.At(p.Len()-1).Type()) && embedsUnimplemented(sig)
}

// isServerStream reports whether t is an interface type whose Context
// method is grpc.ServerStream's.
func isServerStream(t types.Type) bool {
	if t == nil || !types.IsInterface(t) {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, false, nil, "Context")
	m, ok := obj.(*types.Func)
	return ok && isStreamContext(m)
}

// isStreamContext reports whether fn is grpc.ServerStream's Context
// method, whose result is the request context of a streaming call.
func isStreamContext(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Context" || fn.Pkg() == nil || fn.Pkg().Path() != pathGRPC {
		return false
	}
	recv := named.Recv(fn)
	return recv != nil && named.Is(recv.Type(), false, pathGRPC, "ServerStream")
}

// isConnectNamed reports whether t is *connect.<name>[…] of either connect
// module path.
func isConnectNamed(t types.Type, name string) bool {
	return named.Is(t, true, pathConnect, name) || named.Is(t, true, pathConnectOld, name)
}

// connectRoot reports whether params and results are a connect-go handler
// shape, the first parameter being context.Context:
//
//	(ctx, *connect.Request[T]) (*connect.Response[U], error)        unary
//	(ctx, *connect.ClientStream[T]) (*connect.Response[U], error)   client streaming
//	(ctx, *connect.Request[T], *connect.ServerStream[U]) error      server streaming
//	(ctx, *connect.BidiStream[T, U]) error                          bidi streaming
func connectRoot(params, results *types.Tuple) bool {
	if params.Len() < 2 || !isContextType(params.At(0).Type()) {
		return false
	}
	p1 := params.At(1).Type()
	switch {
	case params.Len() == 2 && results.Len() == 2:
		return (isConnectNamed(p1, "Request") || isConnectNamed(p1, "ClientStream")) &&
			isConnectNamed(results.At(0).Type(), "Response") && isErrorType(results.At(1).Type())
	case params.Len() == 2 && results.Len() == 1:
		return isConnectNamed(p1, "BidiStream") && isErrorType(results.At(0).Type())
	case params.Len() == 3 && results.Len() == 1:
		return isConnectNamed(p1, "Request") && isConnectNamed(params.At(2).Type(), "ServerStream") &&
			isErrorType(results.At(0).Type())
	}
	return false
}

// declRoot classifies a function declaration.
func declRoot(decl *ast.FuncDecl, fn *types.Func, dirs *directives) rootKind {
	if dirs.handler(decl.Doc) {
		return rootCustom
	}
	if fn == nil {
		return notRoot
	}
	sig, _ := fn.Type().(*types.Signature)
	if k := signatureRoot(sig); k != notRoot {
		return k
	}
	if grpcRoot(fn) {
		return rootGRPC
	}
	if grpcStreamRoot(fn) {
		return rootGRPCStream
	}
	return notRoot
}

// configRoot reports whether Config.Roots names fn, or a func(T) pattern
// matches its signature.
func (r *runner) configRoot(fn *types.Func, sig *types.Signature) bool {
	if len(r.cfg.Roots) == 0 || fn.Pkg() == nil {
		return false
	}
	key := knowledge.Qualified(fn, fn.Pkg().Path())
	for _, rt := range r.cfg.Roots {
		if rt == key {
			return true
		}
	}
	return r.patternRoot(sig)
}

// patternRoot reports whether a "func(T)" entry of Config.Roots matches the
// first parameter of sig.
func (r *runner) patternRoot(sig *types.Signature) bool {
	if len(r.cfg.Roots) == 0 || sig == nil || sig.Params().Len() == 0 {
		return false
	}
	first := "func(" + types.TypeString(sig.Params().At(0).Type(), nil) + ")"
	for _, rt := range r.cfg.Roots {
		if rt == first {
			return true
		}
	}
	return false
}
