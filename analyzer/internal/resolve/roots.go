package resolve

import (
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
)

// Request roots by signature.
//
// A function serves requests when its signature is a framework's handler
// shape, or it is a gRPC method of a generated service's implementation.
// What the framework is decides how a fix names the request's context, so
// a root says which one it is.

// RootKind says which framework a request root belongs to; it decides the
// request-context expression used by suggested fixes.
type RootKind int

const (
	NotRoot RootKind = iota
	RootHTTP
	RootGin
	RootEcho
	RootFiberV2
	RootFiberV3
	RootGRPC
	RootCustom     // no framework's shape: a directive, the configuration, an adapter or a registration made it one
	RootHTTPRouter // func(http.ResponseWriter, *http.Request, httprouter.Params)
	RootConnect    // connect-go unary and streaming handlers: ctx is the first param
	RootGRPCStream // gRPC streaming methods: the request context is stream.Context()
	RootHertz      // func(context.Context, *app.RequestContext)
)

// SignatureRoot classifies a handler signature shared by functions and
// func literals. gRPC methods need the receiver and are handled apart.
func SignatureRoot(sig *types.Signature) RootKind {
	if sig == nil {
		return NotRoot
	}
	params, results := sig.Params(), sig.Results()
	switch {
	case params.Len() == 2 && results.Len() == 0 &&
		named.Is(params.At(0).Type(), false, knowledge.PathHTTP, "ResponseWriter") &&
		named.Is(params.At(1).Type(), true, knowledge.PathHTTP, "Request"):
		return RootHTTP
	case params.Len() == 3 && results.Len() == 0 &&
		named.Is(params.At(0).Type(), false, knowledge.PathHTTP, "ResponseWriter") &&
		named.Is(params.At(1).Type(), true, knowledge.PathHTTP, "Request") &&
		named.Is(params.At(2).Type(), false, knowledge.PathHTTPRouter, "Params"):
		return RootHTTPRouter
	case params.Len() == 2 && results.Len() == 0 &&
		named.IsContext(params.At(0).Type()) && named.Is(params.At(1).Type(), true, knowledge.PathHertzApp, "RequestContext"):
		return RootHertz
	case params.Len() == 1 && results.Len() == 0 && named.Is(params.At(0).Type(), true, knowledge.PathGin, "Context"):
		return RootGin
	case connectRoot(params, results):
		return RootConnect
	case params.Len() == 1 && results.Len() == 1 && named.IsError(results.At(0).Type()):
		p := params.At(0).Type()
		switch {
		case named.Is(p, false, knowledge.PathEcho, "Context"), named.Is(p, true, knowledge.PathEchoV5, "Context"):
			return RootEcho
		case named.Is(p, true, knowledge.PathFiberV2, "Ctx"):
			return RootFiberV2
		case named.Is(p, false, knowledge.PathFiberV3, "Ctx"):
			return RootFiberV3
		}
	}
	return NotRoot
}

// GRPCRoot reports whether fn is a unary gRPC server method:
// (ctx context.Context, req *T) (*U, error) on a type that embeds a
// generated Unimplemented*Server.
func GRPCRoot(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	p, r := sig.Params(), sig.Results()
	if p.Len() != 2 || r.Len() != 2 || !named.IsContext(p.At(0).Type()) || !named.IsError(r.At(1).Type()) {
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
	n, ok := recv.(*types.Named)
	if !ok {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
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

// GRPCStreamRoot reports whether fn is a streaming gRPC server method on a
// type that embeds a generated Unimplemented*Server: server streaming
// (req *T, stream X) error, or client and bidi streaming (stream X) error,
// where X is an interface whose Context method is grpc.ServerStream's (the
// generated X_YServer, or grpc.ServerStreamingServer[T],
// ClientStreamingServer[T, U] and BidiStreamingServer[T, U]).
func GRPCStreamRoot(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	p, r := sig.Params(), sig.Results()
	if r.Len() != 1 || !named.IsError(r.At(0).Type()) {
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
	return ok && IsStreamContext(m)
}

// IsStreamContext reports whether fn is grpc.ServerStream's Context
// method, whose result is the request context of a streaming call.
func IsStreamContext(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Context" || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.PathGRPC {
		return false
	}
	recv := named.Recv(fn)
	return recv != nil && named.Is(recv.Type(), false, knowledge.PathGRPC, "ServerStream")
}

// isConnectNamed reports whether t is *connect.<name>[…] of either connect
// module path.
func isConnectNamed(t types.Type, name string) bool {
	return named.Is(t, true, knowledge.PathConnect, name) || named.Is(t, true, knowledge.PathConnectOld, name)
}

// connectRoot reports whether params and results are a connect-go handler
// shape, the first parameter being context.Context:
//
//	(ctx, *connect.Request[T]) (*connect.Response[U], error)        unary
//	(ctx, *connect.ClientStream[T]) (*connect.Response[U], error)   client streaming
//	(ctx, *connect.Request[T], *connect.ServerStream[U]) error      server streaming
//	(ctx, *connect.BidiStream[T, U]) error                          bidi streaming
func connectRoot(params, results *types.Tuple) bool {
	if params.Len() < 2 || !named.IsContext(params.At(0).Type()) {
		return false
	}
	p1 := params.At(1).Type()
	switch {
	case params.Len() == 2 && results.Len() == 2:
		return (isConnectNamed(p1, "Request") || isConnectNamed(p1, "ClientStream")) &&
			isConnectNamed(results.At(0).Type(), "Response") && named.IsError(results.At(1).Type())
	case params.Len() == 2 && results.Len() == 1:
		return isConnectNamed(p1, "BidiStream") && named.IsError(results.At(0).Type())
	case params.Len() == 3 && results.Len() == 1:
		return isConnectNamed(p1, "Request") && isConnectNamed(params.At(2).Type(), "ServerStream") &&
			named.IsError(results.At(0).Type())
	}
	return false
}

// DeclRoot classifies a function declaration: marked says that its doc
// comment makes it a handler (the analyzer's //syncio:handler), which
// no signature needs to confirm.
func DeclRoot(fn *types.Func, marked bool) RootKind {
	if marked {
		return RootCustom
	}
	if fn == nil {
		return NotRoot
	}
	sig, _ := fn.Type().(*types.Signature)
	if k := SignatureRoot(sig); k != NotRoot {
		return k
	}
	if GRPCRoot(fn) {
		return RootGRPC
	}
	if GRPCStreamRoot(fn) {
		return RootGRPCStream
	}
	return NotRoot
}
