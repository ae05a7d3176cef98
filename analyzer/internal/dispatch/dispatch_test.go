package dispatch

import (
	"bytes"
	"encoding/gob"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/internal/standin"
)

// TestIfaceKey: dispatch follows the program's named interfaces with
// methods, an alias by what it names, and neither an empty interface, a
// concrete type, a gRPC stream (it embeds grpc.ServerStream), nor the
// interfaces of the standard library, the frameworks and loggers.
func TestIfaceKey(t *testing.T) {
	t.Parallel()
	extra := map[string]string{
		"io":                              `package io; type Writer interface{ Write([]byte) (int, error) }`,
		"example.com/store":               `package store; type Store interface{ Get(string) error }`,
		"example.com/app/logger":          `package logger; type Logger interface{ Info(string) }`,
		"github.com/gin-gonic/gin/render": `package render; type Render interface{ Render() error }`,
	}
	f, info := check(t, "example.com/app", `package app

import (
	"io"

	"example.com/app/logger"
	"example.com/store"
	"github.com/gin-gonic/gin/render"
	"google.golang.org/grpc"
)

type Local interface{ Do() }
type Alias = Local
type Empty interface{}
type Concrete struct{}
type Stream interface {
	Send(int) error
	grpc.ServerStream
}

var (
	local    Local
	alias    Alias
	empty    Empty
	concrete Concrete
	stream   Stream
	st       store.Store
	w        io.Writer
	log      logger.Logger
	rd       render.Render
)
`, extra)
	want := map[string]string{
		"local": "example.com/app.Local", "alias": "example.com/app.Local", "st": "example.com/store.Store",
		"empty": "", "concrete": "", "stream": "", "w": "", "log": "", "rd": "",
	}
	for id := range packageVars(f) {
		key, ok := IfaceKey(info.Defs[id].Type())
		if w := want[id.Name]; key != w || ok != (w != "") {
			t.Errorf("IfaceKey(type of %s) = %q, %v; want %q", id.Name, key, ok, w)
		}
		delete(want, id.Name)
	}
	if len(want) > 0 {
		t.Errorf("not checked: %v", slices.Sorted(maps.Keys(want)))
	}
	for path, followed := range map[string]bool{
		"example.com/app": true, "github.com/gin-gonic/ginx": true, "example.com/blog": true,
		"io": false, "github.com/gin-gonic/gin": false, "github.com/labstack/echo/v4/middleware": false,
		"google.golang.org/grpc/metadata": false, "go.uber.org/zap": false,
	} {
		if got := FollowedIface(path); got != followed {
			t.Errorf("FollowedIface(%q) = %v, want %v", path, got, followed)
		}
	}
}

// TestPromotedIface: a method call goes through the receiver's interface,
// or through the interface a struct embeds (at any depth), and through no
// interface for a concrete method.
func TestPromotedIface(t *testing.T) {
	t.Parallel()
	f, info := check(t, "example.com/app", `package app

type Caller interface{ Call() error }
type Outer interface{ Caller }
type Client struct{ Caller }
type Wrapped struct{ *Client }
type Concrete struct{}

func (Concrete) Call() error { return nil }

func use(c Caller, o Outer, cl *Client, w Wrapped, k Concrete) {
	c.Call()
	o.Call()
	cl.Call()
	w.Call()
	k.Call()
}
`, nil)
	want := map[string]string{"c": "example.com/app.Caller", "o": "example.com/app.Outer", "cl": "example.com/app.Caller",
		"w": "example.com/app.Caller", "k": ""}
	got := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Call" {
			return true
		}
		s := ""
		if t := PromotedIface(info.Selections[sel]); t != nil {
			s = types.TypeString(t, nil)
		}
		got[sel.X.(*ast.Ident).Name] = s
		return true
	})
	if !maps.Equal(got, want) {
		t.Errorf("PromotedIface by receiver = %v, want %v", got, want)
	}
}

// TestImplementable: the program can implement an exported interface
// whose methods are all exported, and no other.
func TestImplementable(t *testing.T) {
	t.Parallel()
	f, info := check(t, "example.com/lib", `package lib

type Store interface{ Get() error }
type Value interface {
	Get() error
	export() any
}
type provider interface{ Get() error }

var (
	store Store
	value Value
	prov  provider
)
`, nil)
	want := map[string]bool{"store": true, "value": false, "prov": false}
	for id := range packageVars(f) {
		typ := info.Defs[id].Type()
		if got := Implementable(typ, typ.Underlying().(*types.Interface)); got != want[id.Name] {
			t.Errorf("Implementable(type of %s) = %v, want %v", id.Name, got, want[id.Name])
		}
	}
}

// packageVars yields the first name of each package-level var spec of f.
func packageVars(f *ast.File) iter.Seq[*ast.Ident] {
	return func(yield func(*ast.Ident) bool) {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, sp := range gd.Specs {
				if vs, ok := sp.(*ast.ValueSpec); ok && !yield(vs.Names[0]) {
					return
				}
			}
		}
	}
}

// TestMethodName: a concrete method is named as chains name it.
func TestMethodName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ typ, method, want string }{
		{"*store.SQL", "Ping", "store.(*SQL).Ping"},
		{"store.SQL", "Ping", "store.SQL.Ping"},
		{"SQL", "Ping", "SQL.Ping"},
	} {
		if got := MethodName(c.typ, c.method); got != c.want {
			t.Errorf("MethodName(%q, %q) = %q, want %q", c.typ, c.method, got, c.want)
		}
	}
}

// TestDynCall: Prepend puts a caller's call before the path, keeps the
// first lock, adds the ignores it lacks, and leaves the original alone;
// Key names the interface call by its own site, whatever the path.
func TestDynCall(t *testing.T) {
	t.Parallel()
	d := DynCall[struct{}]{Iface: "example.com/store.Store", Method: "Get", Chain: []string{"s.Get"}, Sites: []string{"svc.go:9:2"},
		Ignore: []string{"SIO005"}}
	up := d.Prepend("svc.Load", "api.go:4:3", "mu", []string{"SIO001", "SIO005"})
	if !slices.Equal(up.Chain, []string{"svc.Load", "s.Get"}) || !slices.Equal(up.Sites, []string{"api.go:4:3", "svc.go:9:2"}) {
		t.Errorf("Prepend: chain %v sites %v", up.Chain, up.Sites)
	}
	if up.Lock != "mu" || !slices.Equal(up.Ignore, []string{"SIO005", "SIO001"}) {
		t.Errorf("Prepend: lock %q ignore %v, want mu [SIO005 SIO001]", up.Lock, up.Ignore)
	}
	if len(d.Chain) != 1 || len(d.Ignore) != 1 || d.Lock != "" {
		t.Errorf("Prepend changed the original: %+v", d)
	}
	if again := up.Prepend("h", "main.go:1:1", "other", nil); again.Lock != "mu" {
		t.Errorf("Prepend replaced the lock held deeper: %q", again.Lock)
	}
	if d.Key() != "example.com/store.Store.Get@svc.go:9:2" || up.Key() != d.Key() {
		t.Errorf("Key: %q and %q, want both example.com/store.Store.Get@svc.go:9:2", d.Key(), up.Key())
	}
	a := []string{"x"}
	if u := Union(a, nil); &u[0] != &a[0] {
		t.Error("Union(a, nil) copied a")
	}
}

// TestRefsNotEncoded: the func arguments held before the summaries are
// final (syntax and types of this package) are no part of a fact; Args
// are.
func TestRefsNotEncoded(t *testing.T) {
	t.Parallel()
	type fact struct{ Rule string }
	d := DynCall[fact]{Iface: "a.I", Method: "M", Sites: []string{"a.go:1:1"},
		Args: []DynArg[fact]{{Param: 1, Name: "func literal at a.go:2:3", Site: "a.go:2:3", Fact: &fact{Rule: "SIO001"}}}}
	d.SetRefs([]ArgRef{{Param: 1, Lit: &ast.FuncLit{}}})
	if len(d.Refs()) != 1 {
		t.Fatalf("Refs after SetRefs: %v", d.Refs())
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&d); err != nil {
		t.Fatal(err)
	}
	var back DynCall[fact]
	if err := gob.NewDecoder(&buf).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if back.Refs() != nil || len(back.Args) != 1 || back.Args[0].Fact.Rule != "SIO001" {
		t.Errorf("decoded: refs %v, args %+v", back.Refs(), back.Args)
	}
}

// TestBindings: the interfaces reaching one are followed through every
// interface-to-interface conversion, cycles included; Method finds a
// conversion's method in place.
func TestBindings(t *testing.T) {
	t.Parallel()
	b := &Bindings[struct{}]{Into: map[string][]string{"A": {"B"}, "B": {"C", "A"}, "D": {"A"}}}
	got := slices.Sorted(maps.Keys(b.Reaching("A")))
	if !slices.Equal(got, []string{"A", "B", "C"}) {
		t.Errorf("Reaching(A) = %v, want [A B C]", got)
	}
	c := &Conv[struct{}]{Methods: []ConvMethod[struct{}]{{Name: "Get"}, {Name: "Put"}}}
	if m := c.Method("Put"); m == nil || m != &c.Methods[1] {
		t.Errorf("Method(Put) = %v, want the second entry", m)
	}
	if m := c.Method("Del"); m != nil {
		t.Errorf("Method(Del) = %v, want nil", m)
	}
}

// TestCompositeConversions: a struct literal's fields (keyed or by
// position), a slice's and an array's elements and a map's values are
// converted to the field's or element's type; a map's keys are not.
func TestCompositeConversions(t *testing.T) {
	t.Parallel()
	f, info := check(t, "example.com/app", `package app

type Store interface{ Get() error }
type SQL struct{}

func (SQL) Get() error { return nil }

type Deps struct {
	Name  string
	Store Store
}

var (
	keyed = Deps{Store: SQL{}, Name: "k"}
	byPos = Deps{"p", SQL{}}
	list  = []Store{SQL{}}
	arr   = [1]Store{SQL{}}
	byKey = map[string]Store{"m": SQL{}}
	ptrs  = []*Deps{{Name: "e", Store: SQL{}}}
)
`, nil)
	var got []string
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		var conv func(lit *ast.CompositeLit)
		conv = func(lit *ast.CompositeLit) {
			CompositeConversions(info, lit, func(e ast.Expr, to types.Type) {
				src := types.ExprString(e)
				if inner, ok := e.(*ast.CompositeLit); ok && inner.Type == nil {
					conv(inner) // an element of elided type: *Deps
					src = "{…}"
				}
				got = append(got, vs.Names[0].Name+": "+src+" → "+types.TypeString(to, (*types.Package).Name))
			})
		}
		conv(vs.Values[0].(*ast.CompositeLit))
		return false
	})
	want := []string{
		`keyed: SQL{} → app.Store`, `keyed: "k" → string`,
		`byPos: "p" → string`, `byPos: SQL{} → app.Store`,
		`list: SQL{} → app.Store`,
		`arr: SQL{} → app.Store`,
		`byKey: SQL{} → app.Store`,
		`ptrs: "e" → string`, `ptrs: SQL{} → app.Store`, `ptrs: {…} → *app.Deps`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("conversions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// standIns are the packages the tests' sources import besides their own
// (an interface is followed by its import path and name only, so a type
// of the right name at the right path is all a test needs).
var standIns = map[string]string{
	"context": `package context; type Context interface{ Done() <-chan struct{} }`,
	"google.golang.org/grpc": `package grpc
import "context"
type ServerStream interface{ Context() context.Context; SendMsg(any) error }`,
}

// check type-checks src as the package at path against the stand-ins
// and extra packages (path → source).
func check(t *testing.T, path, src string, extra map[string]string) (*ast.File, *types.Info) {
	t.Helper()
	srcs := maps.Clone(standIns)
	maps.Copy(srcs, extra)
	return standin.Check(t, token.NewFileSet(), path, src, srcs)
}

// TestHeld: what a receiver holds is the concrete types reaching it
// through the places that feed it (a cycle among them included); nil
// stored adds no type; a value of unseen origin, or a place nothing is
// seen stored into, leaves the set incomplete, with what was seen; a
// method name nothing calls dynamically adds nothing.
func TestHeld(t *testing.T) {
	t.Parallel()
	b := Index[int](nil)
	b.AddHolds([]Hold{
		{To: "F:a", From: "P:new#0"},
		{To: "P:new#0", From: "T:*cache.Memo"},
		{To: "P:new#0", From: "F:b"},
		{To: "F:b", From: "F:a"}, // a cycle
		{To: "F:b", From: Nil},
		{To: "F:c", From: "T:*cache.Redis"},
		{To: "F:c", From: Unseen},
		{To: "F:d", From: "T:*cache.Memo"},
		{To: "F:d", From: "P:unseen#0"},
		{To: "P:m#0", From: "N:Set#0"},
		{To: "P:m#0", From: "T:*cache.Memo"},
		{To: "F:nil", From: Nil},
	})
	for _, c := range []struct {
		refs  []string
		types []string
		all   bool
	}{
		{[]string{"F:a"}, []string{"*cache.Memo"}, true},
		{[]string{"F:a", "F:c"}, []string{"*cache.Memo", "*cache.Redis"}, false},
		{[]string{"F:d"}, []string{"*cache.Memo"}, false},
		{[]string{"P:m#0"}, []string{"*cache.Memo"}, true},
		{[]string{"F:nil"}, nil, true},
		{[]string{"T:*x.Y"}, []string{"*x.Y"}, true},
	} {
		ts, all := b.Held(c.refs)
		got := slices.Sorted(maps.Keys(ts))
		if !slices.Equal(got, c.types) || all != c.all {
			t.Errorf("Held(%v) = %v, %v; want %v, %v", c.refs, got, all, c.types, c.all)
		}
		// Asked again, from the cache: the same.
		if ts2, all2 := b.Held(c.refs); !maps.Equal(ts, ts2) || all != all2 {
			t.Errorf("Held(%v) again = %v, %v", c.refs, ts2, all2)
		}
	}
}
