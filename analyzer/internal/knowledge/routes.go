package knowledge

import (
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// Registration describes the route-registration methods of one router
// type (or the registration functions of one package): the calls that
// hand a request handler to a router. Groups and sub-routers are covered
// by their type: gin's *RouterGroup serves the engine and its groups, chi's
// Router interface every Route and Group callback.
type Registration struct {
	Framework string   // as shown in the roots line: "gin", "chi", …
	Path      string   // import path of the type or of the functions
	Type      string   // the router type; "" for package-level functions
	Names     []string // the registration methods (or functions)
	// Handler is the index of the handler argument. With Chain set, every
	// argument from there on is a handler too (gin, fiber, hertz: the
	// middleware of one route and its handler, all of the handler type);
	// without it, later arguments are middleware constructors, no
	// handlers (echo's m ...MiddlewareFunc).
	Handler int
	Chain   bool
}

// verbs are the HTTP methods that routers name their registration
// methods after.
var (
	verbsUpper = []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE"}
	verbsTitle = []string{"Get", "Post", "Put", "Delete", "Patch", "Head", "Options", "Connect", "Trace"}
)

func with(names []string, more ...string) []string {
	return append(append([]string(nil), names...), more...)
}

// Registrations is the table of known registration calls. Evidence: each
// router's exported API at the versions named in docs/frameworks.md; every
// entry has a testdata case (analyzer/testdata/src/registrations).
var Registrations = []Registration{
	{Framework: "net/http", Path: "net/http", Names: []string{"Handle", "HandleFunc"}, Handler: 1},
	{Framework: "net/http", Path: "net/http", Type: "ServeMux", Names: []string{"Handle", "HandleFunc"}, Handler: 1},

	{Framework: "gorilla/mux", Path: "github.com/gorilla/mux", Type: "Router", Names: []string{"Handle", "HandleFunc"}, Handler: 1},
	{Framework: "gorilla/mux", Path: "github.com/gorilla/mux", Type: "Route", Names: []string{"Handler", "HandlerFunc"}, Handler: 0},

	{Framework: "chi", Path: "github.com/go-chi/chi/v5", Type: "Router", Names: with(verbsTitle, "Handle", "HandleFunc"), Handler: 1},
	{Framework: "chi", Path: "github.com/go-chi/chi/v5", Type: "Router", Names: []string{"Method", "MethodFunc"}, Handler: 2},
	{Framework: "chi", Path: "github.com/go-chi/chi/v5", Type: "Mux", Names: with(verbsTitle, "Handle", "HandleFunc"), Handler: 1},
	{Framework: "chi", Path: "github.com/go-chi/chi/v5", Type: "Mux", Names: []string{"Method", "MethodFunc"}, Handler: 2},
	{Framework: "chi", Path: "github.com/go-chi/chi", Type: "Router", Names: with(verbsTitle, "Handle", "HandleFunc"), Handler: 1},
	{Framework: "chi", Path: "github.com/go-chi/chi", Type: "Router", Names: []string{"Method", "MethodFunc"}, Handler: 2},
	{Framework: "chi", Path: "github.com/go-chi/chi", Type: "Mux", Names: with(verbsTitle, "Handle", "HandleFunc"), Handler: 1},
	{Framework: "chi", Path: "github.com/go-chi/chi", Type: "Mux", Names: []string{"Method", "MethodFunc"}, Handler: 2},

	{Framework: "gin", Path: "github.com/gin-gonic/gin", Type: "RouterGroup", Names: with(verbsUpper[:7], "Any"), Handler: 1, Chain: true},
	{Framework: "gin", Path: "github.com/gin-gonic/gin", Type: "RouterGroup", Names: []string{"Handle", "Match"}, Handler: 2, Chain: true},
	{Framework: "gin", Path: "github.com/gin-gonic/gin", Type: "IRoutes", Names: with(verbsUpper[:7], "Any"), Handler: 1, Chain: true},
	{Framework: "gin", Path: "github.com/gin-gonic/gin", Type: "IRoutes", Names: []string{"Handle", "Match"}, Handler: 2, Chain: true},
	{Framework: "gin", Path: "github.com/gin-gonic/gin", Type: "Engine", Names: []string{"NoRoute", "NoMethod"}, Handler: 0, Chain: true},

	{Framework: "echo", Path: "github.com/labstack/echo/v4", Type: "Echo", Names: with(verbsUpper, "Any", "RouteNotFound"), Handler: 1},
	{Framework: "echo", Path: "github.com/labstack/echo/v4", Type: "Echo", Names: []string{"Add", "Match"}, Handler: 2},
	{Framework: "echo", Path: "github.com/labstack/echo/v4", Type: "Group", Names: with(verbsUpper, "Any", "RouteNotFound"), Handler: 1},
	{Framework: "echo", Path: "github.com/labstack/echo/v4", Type: "Group", Names: []string{"Add", "Match"}, Handler: 2},
	{Framework: "echo", Path: "github.com/labstack/echo/v5", Type: "Echo", Names: with(verbsUpper, "Any", "RouteNotFound"), Handler: 1},
	{Framework: "echo", Path: "github.com/labstack/echo/v5", Type: "Echo", Names: []string{"Add", "Match"}, Handler: 2},
	{Framework: "echo", Path: "github.com/labstack/echo/v5", Type: "Group", Names: with(verbsUpper, "Any", "RouteNotFound"), Handler: 1},
	{Framework: "echo", Path: "github.com/labstack/echo/v5", Type: "Group", Names: []string{"Add", "Match"}, Handler: 2},

	{Framework: "fiber", Path: "github.com/gofiber/fiber/v2", Type: "App", Names: with(verbsTitle, "All"), Handler: 1, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v2", Type: "App", Names: []string{"Add"}, Handler: 2, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v2", Type: "Group", Names: with(verbsTitle, "All"), Handler: 1, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v2", Type: "Group", Names: []string{"Add"}, Handler: 2, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v2", Type: "Router", Names: with(verbsTitle, "All"), Handler: 1, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v2", Type: "Router", Names: []string{"Add"}, Handler: 2, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v3", Type: "App", Names: with(verbsTitle, "All"), Handler: 1, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v3", Type: "App", Names: []string{"Add"}, Handler: 2, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v3", Type: "Group", Names: with(verbsTitle, "All"), Handler: 1, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v3", Type: "Group", Names: []string{"Add"}, Handler: 2, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v3", Type: "Router", Names: with(verbsTitle, "All"), Handler: 1, Chain: true},
	{Framework: "fiber", Path: "github.com/gofiber/fiber/v3", Type: "Router", Names: []string{"Add"}, Handler: 2, Chain: true},

	{Framework: "hertz", Path: "github.com/cloudwego/hertz/pkg/route", Type: "RouterGroup", Names: with(verbsUpper[:7], "Any"), Handler: 1, Chain: true},
	{Framework: "hertz", Path: "github.com/cloudwego/hertz/pkg/route", Type: "RouterGroup", Names: []string{"Handle"}, Handler: 2, Chain: true},
	{Framework: "hertz", Path: "github.com/cloudwego/hertz/pkg/route", Type: "IRoutes", Names: with(verbsUpper[:7], "Any"), Handler: 1, Chain: true},
	{Framework: "hertz", Path: "github.com/cloudwego/hertz/pkg/route", Type: "IRoutes", Names: []string{"Handle"}, Handler: 2, Chain: true},

	{Framework: "httprouter", Path: "github.com/julienschmidt/httprouter", Type: "Router", Names: verbsUpper[:7], Handler: 1},
	{Framework: "httprouter", Path: "github.com/julienschmidt/httprouter", Type: "Router", Names: []string{"Handle", "Handler", "HandlerFunc"}, Handler: 2},
}

var registrationIndex = func() map[string]*Registration {
	m := map[string]*Registration{}
	for i := range Registrations {
		r := &Registrations[i]
		for _, n := range r.Names {
			m[r.Path+"."+r.Type+"."+n] = r
		}
	}
	return m
}()

// RegistrationOf returns the table entry of fn, a function or method (of
// a router type, concrete or interface) that registers a route, or nil.
func RegistrationOf(fn *types.Func) *Registration {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	typ := ""
	if recv := named.Recv(fn); recv != nil {
		t := types.Unalias(recv.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		n, ok := t.(*types.Named)
		if !ok || n.Obj() == nil || n.Obj().Pkg() == nil {
			return nil
		}
		typ = n.Obj().Name()
	}
	return registrationIndex[fn.Pkg().Path()+"."+typ+"."+fn.Name()]
}

// Import paths of gRPC and connect-go, whose registrations are generated
// code recognised by shape rather than listed.
const (
	PathGRPC       = "google.golang.org/grpc"
	PathConnect    = "connectrpc.com/connect"
	PathConnectOld = "github.com/bufbuild/connect-go"
)

// Service describes a registration of a whole service value, whose
// methods (those of Iface) become handlers.
type Service struct {
	Framework string
	Arg       int // the service argument
	Iface     *types.Interface
}

// ServiceOf recognises generated service registrations: gRPC's
// pb.RegisterXServer(s, srv), with s a *grpc.Server or a
// grpc.ServiceRegistrar, and connect-go's
// NewXHandler(svc, opts ...connect.HandlerOption) (string, http.Handler).
func ServiceOf(fn *types.Func) (Service, bool) {
	if fn == nil || named.Recv(fn) != nil {
		return Service{}, false
	}
	sig := fn.Type().(*types.Signature)
	p, r := sig.Params(), sig.Results()
	name := fn.Name()
	switch {
	case strings.HasPrefix(name, "Register") && strings.HasSuffix(name, "Server") && p.Len() == 2:
		first := p.At(0).Type()
		if !named.Is(first, true, PathGRPC, "Server") && !named.Is(first, false, PathGRPC, "ServiceRegistrar") {
			return Service{}, false
		}
		if iface, ok := p.At(1).Type().Underlying().(*types.Interface); ok {
			return Service{Framework: "grpc", Arg: 1, Iface: iface}, true
		}
	case strings.HasPrefix(name, "New") && strings.HasSuffix(name, "Handler") && sig.Variadic() && p.Len() == 2 && r.Len() == 2:
		sl, ok := p.At(1).Type().(*types.Slice)
		if !ok || (!named.Is(sl.Elem(), false, PathConnect, "HandlerOption") && !named.Is(sl.Elem(), false, PathConnectOld, "HandlerOption")) {
			return Service{}, false
		}
		if !named.Is(r.At(1).Type(), false, "net/http", "Handler") {
			return Service{}, false
		}
		if iface, ok := p.At(0).Type().Underlying().(*types.Interface); ok {
			return Service{Framework: "connect", Arg: 0, Iface: iface}, true
		}
	}
	return Service{}, false
}
