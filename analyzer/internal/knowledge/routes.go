package knowledge

import (
	_ "embed"
	"fmt"
	"go/types"
	"strings"
	"sync"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// RoutesFile names the embedded routes table in error messages and docs.
const RoutesFile = "analyzer/internal/knowledge/routes.txt"

//go:embed routes.txt
var routesTable string

// Registration describes the route-registration methods of one router
// type (or the registration functions of one package) that take their
// handler at the same argument: a run of rows of routes.txt. Groups and
// sub-routers are covered by their type: gin's *RouterGroup serves the
// engine and its groups, chi's Router interface every Route and Group
// callback.
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
	// Field marks fields of the router type, not methods: Names are
	// struct fields that hold a handler, set by assignment
	// (r.NotFoundHandler = h) or in a composite literal (FieldOf).
	Field bool
}

// RouteSyntax is what a routes table's row looks like, for error
// messages.
const RouteSyntax = `want "pkg/path.(*Router).Get | kind: route | framework: name | handler: index" (from 0), optionally "| chain: yes", then "| evidence: text"; or "pkg/path.Router.Field | kind: route | framework: name | handler: field | evidence: text"; see docs/frameworks.md`

// ParseRegistrations parses a routes table (ParseTable): route rows only,
// a run of rows of one type with the same framework, handler and chain
// one Registration. Errors name file:line.
func ParseRegistrations(file, data string) ([]Registration, error) {
	rows, err := ParseTable(file, data)
	if err != nil {
		// The call tables' syntax, which ParseTable names, is not this
		// table's.
		return nil, fmt.Errorf("%s; %s", strings.TrimSuffix(err.Error(), "; "+RowSyntax), RouteSyntax)
	}
	var regs []Registration
	at := map[string]int{}
	for _, r := range rows {
		if r.Kind != KindRoute {
			return nil, fmt.Errorf("%s:%d: %s: a %s row (a routes table holds route rows only); %s", file, r.Line, r.Key, r.Kind, RouteSyntax)
		}
		path, typ, name := splitKey(r.Key)
		// RegistrationOf looks a method up by its receiver's type name,
		// pointer or not: (*T).M and T.M are one call.
		if line, dup := at[path+"."+typ+"."+name]; dup {
			return nil, fmt.Errorf("%s:%d: %s names the call of line %d (a method is known by its type, pointer or not); %s", file, r.Line, r.Key, line, RouteSyntax)
		}
		at[path+"."+typ+"."+name] = r.Line
		reg := Registration{Framework: r.Framework, Path: path, Type: typ, Handler: r.HandlerIndex(), Chain: r.Chain == ChainYes, Field: r.Handler == HandlerField}
		if reg.Field {
			reg.Handler = 0
			if typ == "" {
				return nil, fmt.Errorf("%s:%d: %s: handler %s names no type's field; %s", file, r.Line, r.Key, HandlerField, RouteSyntax)
			}
		}
		if n := len(regs); n > 0 {
			last := &regs[n-1]
			if last.Framework == reg.Framework && last.Path == reg.Path && last.Type == reg.Type && last.Handler == reg.Handler && last.Chain == reg.Chain && last.Field == reg.Field {
				last.Names = append(last.Names, name)
				continue
			}
		}
		reg.Names = []string{name}
		regs = append(regs, reg)
	}
	return regs, nil
}

// splitKey splits a key checked by ParseKey into its import path, its
// type ("" for a package-level function; a pointer receiver's type
// without the pointer) and the function's name.
func splitKey(key string) (path, typ, name string) {
	slash := strings.LastIndex(key, "/")
	dot := slash + 1 + strings.Index(key[slash+1:], ".")
	path, rest := key[:dot], key[dot+1:]
	if t, n, ok := strings.Cut(rest, "."); ok && !strings.HasPrefix(rest, "(*") {
		return path, t, n
	}
	if t, n, ok := strings.Cut(strings.TrimPrefix(rest, "(*"), ")."); ok {
		return path, t, n
	}
	return path, "", rest
}

// Registrations returns the table of known registration calls, routes.txt
// parsed on first use, in its order. The slice is shared: callers do not
// change it.
var Registrations = sync.OnceValue(func() []Registration {
	regs, err := ParseRegistrations(RoutesFile, routesTable)
	if err != nil {
		panic(err) // the embedded table is checked by TestRoutesTable
	}
	return regs
})

var registrationIndex = sync.OnceValue(func() map[string]*Registration {
	regs := Registrations()
	m := map[string]*Registration{}
	for i := range regs {
		r := &regs[i]
		for _, n := range r.Names {
			m[r.Path+"."+r.Type+"."+n] = r
		}
	}
	return m
})

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
	if r := registrationIndex()[fn.Pkg().Path()+"."+typ+"."+fn.Name()]; r != nil && !r.Field {
		return r
	}
	return nil
}

// FieldOf returns the table entry of field, a struct field declared in
// owner (pointer or not) that holds a router's handler (a Field entry),
// or nil.
func FieldOf(owner types.Type, field *types.Var) *Registration {
	if owner == nil || field == nil || !field.IsField() || field.Pkg() == nil {
		return nil
	}
	owner = types.Unalias(owner)
	if p, ok := owner.(*types.Pointer); ok {
		owner = types.Unalias(p.Elem())
	}
	n, ok := owner.(*types.Named)
	if !ok || n.Obj() == nil || n.Obj().Pkg() != field.Pkg() {
		return nil
	}
	if r := registrationIndex()[field.Pkg().Path()+"."+n.Obj().Name()+"."+field.Name()]; r != nil && r.Field {
		return r
	}
	return nil
}

var routerTypes = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range Registrations() {
		if r.Type != "" && !r.Field {
			m[r.Path+"."+r.Type] = true
		}
	}
	return m
})

// IsRouter reports whether t, pointer or not, is a router type of the
// table (chi's Router and *Mux, fiber's *App, gorilla's *Router, …). A
// router handed to a registration as its handler (chi's Mount, fiber's
// Use with a sub-app, http.Handle("/", r)) serves the routes registered
// on it, which their own registration calls find: it is no handler.
func IsRouter(t types.Type) bool {
	if t == nil {
		return false
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj() == nil || n.Obj().Pkg() == nil {
		return false
	}
	return routerTypes()[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
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
