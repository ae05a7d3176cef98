package knowledge

import (
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestRoutesTable: routes.txt parses into the registrations the analyzer
// reads, so the start-up (which panics on a bad embedded row) cannot
// fail in a release; every row has its evidence, and no framework lost
// its rows.
func TestRoutesTable(t *testing.T) {
	regs, err := ParseRegistrations(RoutesFile, routesTable)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := ParseTable(RoutesFile, routesTable)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for _, r := range regs {
		calls[r.Framework] += len(r.Names)
	}
	for _, r := range rows {
		if r.Evidence == "" || r.Framework == "" || (r.HandlerIndex() < 0 && r.Handler != HandlerField) {
			t.Errorf("%s:%d: %s: no evidence, framework or handler", r.File, r.Line, r.Key)
		}
	}
	if len(rows) < 248 || calls["net/http"] < 4 || calls["gorilla/mux"] < 4 || calls["chi"] < 64 || calls["gin"] < 22 || calls["echo"] < 52 || calls["fiber"] < 72 || calls["hertz"] < 20 || calls["httprouter"] < 10 {
		t.Errorf("%d rows, calls by framework %v: the table lost rows", len(rows), calls)
	}
}

// TestParseRegistrationsErrors: a malformed route row is an error naming
// file:line and saying what is wrong.
func TestParseRegistrationsErrors(t *testing.T) {
	const ok = "# a comment\n\nexample.com/r.(*R).Get | kind: route | framework: r | handler: 1 | evidence: r@v1 r.go:1\n"
	for _, tc := range []struct{ row, want string }{
		{"example.com/r.(*R).Post | kind: route | handler: 1 | evidence: e", `t.txt:4: example.com/r.(*R).Post: no framework field (every route row of the table needs one)`},
		{"example.com/r.(*R).Post | kind: route | framework: r | evidence: e", `t.txt:4: example.com/r.(*R).Post: no handler field (every route row`},
		{"example.com/r.(*R).Post | kind: route | framework: r | handler: 1", `t.txt:4: example.com/r.(*R).Post: no evidence field`},
		{"example.com/r.(*R).Post | kind: route | framework: r | handler: second | evidence: e", `t.txt:4: example.com/r.(*R).Post: handler "second": want the handler argument's index from 0`},
		{"example.com/r.(*R).Post | kind: route | framework: r | handler: -1 | evidence: e", `t.txt:4: example.com/r.(*R).Post: handler "-1"`},
		{"example.com/r.(*R).Post | kind: route | framework: r | handler: 1 | chain: all | evidence: e", `t.txt:4: example.com/r.(*R).Post: chain "all": want yes`},
		{"example.com/r.(*R).Post | kind: route | framework: r | handler: 1 | use: x | evidence: e", `t.txt:4: example.com/r.(*R).Post: field "use" does not belong in a route row (its fields: framework, handler, chain, evidence)`},
		{"example.com/r.(*R).Post | kind: route | framework: r handler: 1 | evidence: e", `t.txt:4: example.com/r.(*R).Post: no handler field`},
		{"example.com/r.(*R) | kind: route | framework: r | handler: 1 | evidence: e", `t.txt:4: "example.com/r.(*R)": want "pkg/path.Func"`},
		{"example.com/r.(*R).Get | kind: route | framework: r | handler: 2 | evidence: e", `t.txt:4: example.com/r.(*R).Get is already at line 3`},
		{"example.com/r.R.Get | kind: route | framework: r | handler: 1 | evidence: e", `t.txt:4: example.com/r.R.Get names the call of line 3`},
		{"example.com/r.Handle | use: r.HandleContext | evidence: e", `t.txt:4: example.com/r.Handle: a blocking row (a routes table holds route rows only`},
		{"example.com/r.R.NotFound | kind: route | framework: r | handler: field | chain: yes | evidence: e", `t.txt:4: example.com/r.R.NotFound: chain with handler field: a field holds one handler`},
		{"example.com/r.NotFound | kind: route | framework: r | handler: field | evidence: e", `t.txt:4: example.com/r.NotFound: handler field names no type's field`},
	} {
		_, err := ParseRegistrations("t.txt", ok+tc.row+"\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "; "+RouteSyntax) || strings.Contains(err.Error(), RowSyntax) {
			t.Errorf("%q: error %v, want it to contain %q and end in the routes table's syntax", tc.row, err, tc.want)
		}
	}
	regs, err := ParseRegistrations("t.txt", ok)
	if err != nil || len(regs) != 1 || regs[0].Path != "example.com/r" || regs[0].Type != "R" || regs[0].Handler != 1 || regs[0].Chain {
		t.Fatalf("good table: %+v, %v", regs, err)
	}
}

// TestParseRegistrationsRuns: a run of rows of one type with the same
// framework, handler and chain is one Registration, its names in the
// table's order; a change of any of them starts another.
func TestParseRegistrationsRuns(t *testing.T) {
	regs, err := ParseRegistrations("t.txt", strings.Join([]string{
		"example.com/r.Handle | kind: route | framework: r | handler: 1 | evidence: e",
		"example.com/r.(*Mux).Get | kind: route | framework: r | handler: 1 | chain: yes | evidence: e",
		"example.com/r.(*Mux).Post | kind: route | framework: r | handler: 1 | chain: yes | evidence: e",
		"example.com/r.(*Mux).Add | kind: route | framework: r | handler: 2 | chain: yes | evidence: e",
		"example.com/r.Router.Get | kind: route | framework: r | handler: 1 | chain: yes | evidence: e",
		"example.com/r.Router.Use | kind: route | framework: r | handler: 1 | evidence: e",
		"example.com/r.Router.NotFound | kind: route | framework: r | handler: field | evidence: e",
		"example.com/r.Router.PanicHandler | kind: route | framework: r | handler: field | evidence: e",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range regs {
		got = append(got, r.Path+" "+r.Type+" "+strings.Join(r.Names, ",")+" "+string(rune('0'+r.Handler))+map[bool]string{true: " chain"}[r.Chain]+map[bool]string{true: " field"}[r.Field])
	}
	want := []string{"example.com/r  Handle 1", "example.com/r Mux Get,Post 1 chain", "example.com/r Mux Add 2 chain", "example.com/r Router Get 1 chain", "example.com/r Router Use 1", "example.com/r Router NotFound,PanicHandler 0 field"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("registrations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRegistrationOf: a row's key finds the function it names, whatever
// its receiver (pointer, value, interface) or none; a type of the same
// name in another package, or a method the table does not list, is no
// registration.
func TestRegistrationOf(t *testing.T) {
	pkg := func(path string) *types.Package { return types.NewPackage(path, path[strings.LastIndex(path, "/")+1:]) }
	noSig := types.NewSignatureType(nil, nil, nil, nil, nil, false)
	method := func(p *types.Package, typ string, iface bool, ptr bool, name string) *types.Func {
		tn := types.NewTypeName(token.NoPos, p, typ, nil)
		var under types.Type = types.NewStruct(nil, nil)
		if iface {
			under = types.NewInterfaceType(nil, nil)
		}
		n := types.NewNamed(tn, under, nil)
		var rt types.Type = n
		if ptr {
			rt = types.NewPointer(n)
		}
		recv := types.NewVar(token.NoPos, p, "r", rt)
		return types.NewFunc(token.NoPos, p, name, types.NewSignatureType(recv, nil, nil, nil, nil, false))
	}
	gin, chi, nethttp, fake := pkg("github.com/gin-gonic/gin"), pkg("github.com/go-chi/chi/v5"), pkg("net/http"), pkg("example.com/gin")
	for _, tc := range []struct {
		fn        *types.Func
		framework string
		handler   int
		chain     bool
	}{
		{method(gin, "RouterGroup", false, true, "GET"), "gin", 1, true},
		{method(gin, "RouterGroup", false, false, "Match"), "gin", 2, true}, // the receiver's pointer does not matter
		{method(gin, "IRoutes", true, false, "Any"), "gin", 1, true},
		{method(gin, "Engine", false, true, "NoRoute"), "gin", 0, true},
		{method(chi, "Router", true, false, "MethodFunc"), "chi", 2, false},
		{types.NewFunc(token.NoPos, nethttp, "HandleFunc", noSig), "net/http", 1, false},
		{method(nethttp, "ServeMux", false, true, "Handle"), "net/http", 1, false},
		{method(fake, "RouterGroup", false, true, "GET"), "", 0, false},
		{method(gin, "RouterGroup", false, true, "Use"), "", 0, false},
		{types.NewFunc(token.NoPos, nethttp, "ListenAndServe", noSig), "", 0, false},
	} {
		r := RegistrationOf(tc.fn)
		switch {
		case tc.framework == "" && r != nil:
			t.Errorf("%s: registration %+v, want none", tc.fn.FullName(), r)
		case tc.framework != "" && r == nil:
			t.Errorf("%s: no registration, want %s's", tc.fn.FullName(), tc.framework)
		case r != nil && (r.Framework != tc.framework || r.Handler != tc.handler || r.Chain != tc.chain):
			t.Errorf("%s: %+v, want %s handler %d chain %v", tc.fn.FullName(), r, tc.framework, tc.handler, tc.chain)
		}
	}
}

// TestIsRouter: a router type is one the table's rows name, pointer or
// not, concrete or interface; a type of the same name in another package,
// or another type of a router's package, is none.
func TestIsRouter(t *testing.T) {
	named := func(path, name string, iface bool) *types.Named {
		p := types.NewPackage(path, path[strings.LastIndex(path, "/")+1:])
		var under types.Type = types.NewStruct(nil, nil)
		if iface {
			under = types.NewInterfaceType(nil, nil)
		}
		return types.NewNamed(types.NewTypeName(token.NoPos, p, name, nil), under, nil)
	}
	for _, tc := range []struct {
		t    types.Type
		want bool
	}{
		{types.NewPointer(named("github.com/go-chi/chi/v5", "Mux", false)), true},
		{named("github.com/go-chi/chi/v5", "Router", true), true},
		{types.NewPointer(named("github.com/gofiber/fiber/v3", "App", false)), true},
		{types.NewPointer(named("net/http", "ServeMux", false)), true},
		{types.NewPointer(named("example.com/chi", "Mux", false)), false},
		{named("github.com/go-chi/chi/v5", "Context", false), false},
		{types.NewPointer(named("net/http", "Request", false)), false},
		{types.Typ[types.String], false},
		{nil, false},
	} {
		if got := IsRouter(tc.t); got != tc.want {
			t.Errorf("IsRouter(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestFieldOf: a field row answers for the field of its type, pointer or
// not, and for no method of the same name; a field of the same name on
// another type, or a non-field variable, is none.
func TestFieldOf(t *testing.T) {
	muxPkg := types.NewPackage("github.com/gorilla/mux", "mux")
	handler := types.NewInterfaceType(nil, nil)
	notFound := types.NewField(token.NoPos, muxPkg, "NotFoundHandler", handler, false)
	router := types.NewNamed(types.NewTypeName(token.NoPos, muxPkg, "Router", nil), types.NewStruct([]*types.Var{notFound}, nil), nil)
	route := types.NewNamed(types.NewTypeName(token.NoPos, muxPkg, "Route", nil), types.NewStruct([]*types.Var{notFound}, nil), nil)
	if r := FieldOf(types.NewPointer(router), notFound); r == nil || r.Framework != "gorilla/mux" || !r.Field {
		t.Errorf("FieldOf(*mux.Router, NotFoundHandler) = %+v, want gorilla/mux's field", r)
	}
	if r := FieldOf(router, notFound); r == nil {
		t.Error("FieldOf(mux.Router, NotFoundHandler) = nil, want the row")
	}
	if r := FieldOf(route, notFound); r != nil {
		t.Errorf("FieldOf(mux.Route, NotFoundHandler) = %+v, want none", r)
	}
	if r := FieldOf(router, types.NewVar(token.NoPos, muxPkg, "NotFoundHandler", handler)); r != nil {
		t.Errorf("a variable, not a field: %+v, want none", r)
	}
	recv := types.NewVar(token.NoPos, muxPkg, "r", types.NewPointer(router))
	method := types.NewFunc(token.NoPos, muxPkg, "NotFoundHandler", types.NewSignatureType(recv, nil, nil, nil, nil, false))
	if r := RegistrationOf(method); r != nil {
		t.Errorf("RegistrationOf a method named like a field row: %+v, want none", r)
	}
	if IsRouter(types.NewPointer(types.NewNamed(types.NewTypeName(token.NoPos, types.NewPackage("github.com/gofiber/fiber/v2", "fiber"), "Config", nil), types.NewStruct(nil, nil), nil))) {
		t.Error("fiber's Config, which only a field row names, is a router")
	}
}
