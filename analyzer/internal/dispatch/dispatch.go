package dispatch

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// Interface dispatch: the data model and its index.
//
// A call through an interface method is resolved where a package sees
// both the call (DynCall, carried up in facts to a root's call,
// PendingCall) and the program's conversions of concrete types to the
// interface (Conv). Interfaces are named by import path and type name,
// because a fact cannot hold a types.Type from another package.
//
// What calling a concrete method or a func argument does is the
// analyzer's summary, F: resolve carries it (*F) without looking inside,
// so that it knows no rule; the analyzer's join reads it.

// DynCall is a call through an interface method on some function's path,
// seen from that function: Chain and Sites lead from the function to the
// interface call, whose own entry is last.
type DynCall[F any] struct {
	Iface  string // import path and name of the interface: example.com/api.UserStore
	Method string // method name
	Chain  []string
	Sites  []string
	Lock   string   // a mutex held on the way, as the analyzer's summary names it
	Ignore []string // rules suppressed on the way (//syncio:ignore)
	// One marks a call through a field of one struct value (Call.One).
	One bool
	// Sig is the func type of a call through a generic type's field
	// (Sig): only the functions of that type stored there are followed.
	// "" when the call's type mentions a type parameter.
	Sig string
	// Ctx marks a call of a method that takes a context.Context: a
	// context handed to the function that makes it may reach the
	// binding (SIO002's deferred decision, rules' dropped.go).
	Ctx bool
	// Dep marks a call made inside a dependency (a session library's
	// store.Get): it is dispatched only to the concrete types the program
	// itself converts, never to the dependency's own.
	Dep bool
	// Given is what the call's arguments give that a binding's nil test
	// on a context may depend on (Walk.Given).
	Given []string `json:",omitempty"`
	// Args are the call's func arguments that do something: dispatch
	// follows one into a binding that calls its parameter on the spot.
	// refs are the same before the package's summaries are final
	// (unexported, so facts never encode them).
	Args []DynArg[F]
	refs []ArgRef
	// Holds are where the call's receiver comes from, when it is read
	// from a field, a variable, a parameter or a call's result (see
	// Hold): the call is dispatched only to the types stored there, when
	// every store is seen.
	Holds []string
}

// Key names the interface call: interface, method and the call's site.
func (d *DynCall[F]) Key() string {
	return d.Iface + "." + d.Method + "@" + d.Sites[len(d.Sites)-1]
}

// Prepend returns d seen from a caller whose call at site leads to it.
func (d DynCall[F]) Prepend(name, site, lock string, ignore []string) DynCall[F] {
	d.Chain = append([]string{name}, d.Chain...)
	d.Sites = append([]string{site}, d.Sites...)
	if d.Lock == "" {
		d.Lock = lock
	}
	d.Ignore = Union(d.Ignore, ignore)
	return d
}

// Refs returns the func arguments not yet summarised (see Args).
func (d *DynCall[F]) Refs() []ArgRef { return d.refs }

// SetRefs records the func arguments to summarise once the package's
// summaries are final; nil once they are (Args holds them then).
func (d *DynCall[F]) SetRefs(refs []ArgRef) { d.refs = refs }

// Union returns a with the strings of b it lacks appended, in order;
// a itself is not modified.
func Union(a, b []string) []string {
	if len(b) == 0 {
		return a
	}
	out := slices.Clone(a)
	for _, r := range b {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// DynArg is a func argument of an interface call, summarised where it is
// written: the parameter it is given to, how the chain names it, where it
// is, and what calling it does.
type DynArg[F any] struct {
	Param int
	Name  string // func literal at media_annotation.go:116, or the function's name
	Site  string
	Fact  *F
}

// ArgRef is a func argument of an interface call before the package's
// summaries are known: a literal of this package or a named function.
type ArgRef struct {
	Param int
	Lit   *ast.FuncLit
	Fn    *types.Func
}

// PendingCall is a root's call that leads to an interface call.
type PendingCall[F any] struct {
	Root    string // the root's display name
	Site    string // the root's call, "file:line:col"
	EndSite string
	Dyn     DynCall[F] // seen from the root's callee (Chain[0] is the callee)
}

// Conv is one concrete type converted to one interface.
type Conv[F any] struct {
	From    string          // for an interface converted to Iface: that interface
	Type    string          // display name of the concrete type: *store.SQL
	Iface   string          // the interface it was converted to
	Where   string          // the function (or package) that converts
	Methods []ConvMethod[F] // the concrete type's methods that block or lead to interface calls, by name
	// Site is where a func is stored into the slot Iface; a Conv with a
	// Site and no Methods only says that something is stored there.
	Site string
	// Sig is the type of a func stored into a generic type's field (Sig),
	// "" for one whose type mentions a type parameter (stored in the
	// generic code itself, fit for every instantiation).
	Sig string
	// Root marks a request root stored into a generic type's field: it
	// is reported inside itself, so it is no binding, but its Sig counts
	// among the types the field holds (Bindings.Sigs).
	Root bool
	// Dep marks a conversion made inside a dependency (a driver binding
	// its own connection type): no interface call made inside a
	// dependency (DynCall.Dep) is dispatched to it.
	Dep bool
	// A Conv with neither From, Methods nor Site says only that the
	// package binds Iface to a type none of whose methods does anything
	// (an in-memory cache), once per interface and package: SIO002's
	// deferred candidates tell an idle binding from none (Bindings.Bound).
}

// ConvMethod is a slice entry, not a map: facts must encode
// deterministically.
type ConvMethod[F any] struct {
	Name string
	Fact *F
	// Calls are the parameters the method calls before it returns (its
	// CallsFact): the func arguments an interface call gives them run on
	// the caller's path (DynCall.Args).
	Calls []int
}

// Method returns c's method called name, or nil.
func (c *Conv[F]) Method(name string) *ConvMethod[F] {
	for i := range c.Methods {
		if c.Methods[i].Name == name {
			return &c.Methods[i]
		}
	}
	return nil
}

// Hold is one edge of what a place of interface type holds: To holds
// what From is. A place is a struct field ("F:" and its resolve.FieldKey),
// a package variable ("V:"), a declared function's parameter ("P:") or
// result ("R:", by types.Func.FullName and index), an interface method's
// result ("M:" iface.Method#k) or the parameter of any method of a name
// called dynamically ("N:" name#i). From is a place, a concrete type
// ("T:" and its name as Conv.Type spells it) or Unseen.
type Hold struct{ To, From string }

// Unseen is a value whose origin the analysis does not follow; Nil is
// nil, stored: a place that holds only nil calls nothing.
const (
	Unseen = "?"
	Nil    = "nil"
)

// Bindings index the conversions a package sees, for the join.
type Bindings[F any] struct {
	ByMethod map[string][]*Conv[F]      // concrete conversions by method name
	Into     map[string][]string        // interface → the interfaces converted to it
	Stored   map[string]map[string]bool // slot → the places a func is stored there
	Sigs     map[string]map[string]bool // generic slot → the types of the funcs stored there
	Bound    map[string]bool            // interfaces (and slots) some concrete type or func is bound to, idle ones included
	// Opaque is set when a binding followed hands its context to a call
	// the analysis cannot follow: SIO002's deferred candidates count it
	// as reaching I/O.
	Opaque bool
	Own    map[string]bool // method names of the program's own conversions (Conv.Dep unset)
	// Budget is what is left of the join's work bound for the pending
	// call being joined.
	Budget int
	// ArgBudget is what is left of the bound on func arguments for the
	// same call.
	ArgBudget int
	// Explored are the interface calls the pending call has been
	// followed through.
	Explored map[string]bool
	// Unfollowed are the calls through a slot the walk met and led to
	// none of the functions stored there, because it cannot tell which
	// one the call reads, and the calls a bound of the walk cut after
	// some (Unfollowed.Partial), by site (file:line:col). Start keeps
	// them: they are the whole join's.
	Unfollowed map[string]Unfollowed
	// Holds are the edges of what places hold (Hold), To → Froms, and
	// held the closures already computed (Held).
	Holds map[string][]string
	held  map[string]heldSet
}

type heldSet struct {
	types map[string]bool
	all   bool
}

// AddHolds adds what places hold to b.
func (b *Bindings[F]) AddHolds(hs []Hold) {
	if b.Holds == nil {
		b.Holds = map[string][]string{}
		b.held = map[string]heldSet{}
	}
	for _, h := range hs {
		b.Holds[h.To] = append(b.Holds[h.To], h.From)
	}
}

// maxHeld bounds the places one receiver's closure visits.
const maxHeld = 1 << 12

// Held returns the concrete types seen stored into the places refs
// name, and whether that is all they may hold: no value of an unseen
// origin reaches them, no place among them is one nothing is seen stored
// into (a parameter of a function whose callers are not seen, a
// dependency's result). A place seen holding only nil holds no type.
func (b *Bindings[F]) Held(refs []string) (map[string]bool, bool) {
	key := strings.Join(refs, "\x00")
	if h, ok := b.held[key]; ok {
		return h.types, h.all
	}
	out := heldSet{types: map[string]bool{}, all: true}
	seen := map[string]bool{}
	queue := slices.Clone(refs)
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		switch {
		case r == Unseen:
			out.all = false
		case r == Nil:
		case strings.HasPrefix(r, "T:"):
			out.types[r[2:]] = true
		case seen[r]:
		case len(seen) >= maxHeld:
			out.all = false
			queue = nil
		default:
			seen[r] = true
			from := b.Holds[r]
			if len(from) == 0 && !strings.HasPrefix(r, "N:") {
				// Nothing seen stored there. A method name nothing
				// calls dynamically adds nothing.
				out.all = false
			}
			queue = append(queue, from...)
		}
	}
	if b.held != nil {
		b.held[key] = out
	}
	return out.types, out.all
}

// Start readies b for the walk of one call: its budgets full, nothing
// explored, nothing opaque yet.
func (b *Bindings[F]) Start(work, argWork int) {
	b.Budget, b.ArgBudget = work, argWork
	b.Explored = map[string]bool{}
	b.Opaque = false
}

// Index returns the bindings of the conversions a package sees. The
// Bindings point into convs, which must not change after.
func Index[F any](convs []Conv[F]) *Bindings[F] {
	b := &Bindings[F]{ByMethod: map[string][]*Conv[F]{}, Into: map[string][]string{}, Stored: map[string]map[string]bool{}, Sigs: map[string]map[string]bool{}, Own: map[string]bool{}, Bound: map[string]bool{},
		Unfollowed: map[string]Unfollowed{}}
	for i := range convs {
		c := &convs[i]
		if c.From != "" {
			b.Into[c.Iface] = append(b.Into[c.Iface], c.From)
			continue
		}
		b.Bound[c.Iface] = true
		if c.Site != "" {
			if b.Stored[c.Iface] == nil {
				b.Stored[c.Iface] = map[string]bool{}
			}
			b.Stored[c.Iface][c.Site] = true
		}
		if c.Sig != "" && (len(c.Methods) > 0 || c.Root) {
			if b.Sigs[c.Iface] == nil {
				b.Sigs[c.Iface] = map[string]bool{}
			}
			b.Sigs[c.Iface][c.Sig] = true
		}
		for _, m := range c.Methods {
			b.ByMethod[m.Name] = append(b.ByMethod[m.Name], c)
			if !c.Dep {
				b.Own[m.Name] = true
			}
		}
	}
	return b
}

// Reaching returns iface and every interface whose values flow into it.
func (b *Bindings[F]) Reaching(iface string) map[string]bool {
	seen := map[string]bool{iface: true}
	queue := []string{iface}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, from := range b.Into[x] {
			if !seen[from] {
				seen[from] = true
				queue = append(queue, from)
			}
		}
	}
	return seen
}

// MethodName names a concrete method as chains do: store.(*SQL).Ping for
// the type name *store.SQL.
func MethodName(typ, method string) string {
	ptr := strings.HasPrefix(typ, "*")
	typ = strings.TrimPrefix(typ, "*")
	pkg, name, ok := strings.Cut(typ, ".")
	if !ok {
		return typ + "." + method
	}
	if ptr {
		return pkg + ".(*" + name + ")." + method
	}
	return pkg + "." + name + "." + method
}

// IfaceKey returns the key of a named interface type that dispatch
// follows (see FollowedIface) and that has methods.
func IfaceKey(t types.Type) (string, bool) {
	n, isNamed := types.Unalias(t).(*types.Named)
	if !isNamed || n.Obj() == nil || n.Obj().Pkg() == nil {
		return "", false
	}
	it, isIface := n.Underlying().(*types.Interface)
	if !isIface || it.NumMethods() == 0 || !FollowedIface(n.Obj().Pkg().Path()) {
		return "", false
	}
	// Generated gRPC stream interfaces embed grpc.ServerStream: the
	// framework's plumbing, like its request objects.
	for i := range it.NumMethods() {
		if it.Method(i).Name() == "SendMsg" || it.Method(i).Name() == "RecvMsg" {
			return "", false
		}
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name(), true
}

// FollowedIface reports whether dispatch follows the interfaces of a
// package: not the standard library's (io.Writer, http.ResponseWriter and
// their kin are plumbing), nor the frameworks' request objects (echo.Context,
// fiber.Ctx) and loggers, which the tables already judge.
func FollowedIface(path string) bool {
	if knowledge.StdPath(path) {
		return false
	}
	for _, p := range []string{knowledge.PathGin, knowledge.PathEcho, knowledge.PathEchoV5, knowledge.PathFiberV2, knowledge.PathFiberV3, "google.golang.org/grpc", "google.golang.org/protobuf"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return false
		}
	}
	return !knowledge.Observability(path)
}

// PromotedIface returns the interface type a method call goes through:
// the receiver's type when it is an interface, or the embedded interface
// field the method is promoted from (c.Call for a struct embedding the
// interface caller is c.caller.Call), or nil for a concrete method.
func PromotedIface(sel *types.Selection) types.Type {
	t := sel.Recv()
	if _, ok := t.Underlying().(*types.Interface); ok {
		return t
	}
	idx := sel.Index()
	for _, i := range idx[:len(idx)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return nil
		}
		t = st.Field(i).Type()
		if _, ok := t.Underlying().(*types.Interface); ok {
			// The rest of the path is inside the interface's own
			// method set (an interface embedding another).
			return t
		}
	}
	return nil
}

// Implementable reports whether the program can bind its own types to a
// dependency's interface: the interface is exported and none of its
// methods is. An interface with an unexported method (goja's Value) is
// implemented only by its own package's types, and the program cannot
// name an unexported one (cast's float64Provider, asserted from any), so
// it records no conversion to it; keeping a dependency's calls through
// them cost a fact for most functions of such a library (pocketbase's
// JavaScript VM: three facts where there was one).
func Implementable(t types.Type, it *types.Interface) bool {
	if n, ok := types.Unalias(t).(*types.Named); !ok || !n.Obj().Exported() {
		return false
	}
	for i := range it.NumMethods() {
		if !it.Method(i).Exported() {
			return false
		}
	}
	return true
}

// CompositeConversions calls add with each field and element of a
// composite literal and the type it is converted to there.
func CompositeConversions(info *types.Info, lit *ast.CompositeLit, add func(e ast.Expr, to types.Type)) {
	t := info.TypeOf(lit)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := info.ObjectOf(id).(*types.Var); ok {
						add(kv.Value, v.Type())
					}
				}
			} else if i < u.NumFields() {
				add(e, u.Field(i).Type())
			}
		}
	case *types.Slice, *types.Array, *types.Map:
		var elem types.Type
		switch u := u.(type) {
		case *types.Slice:
			elem = u.Elem()
		case *types.Array:
			elem = u.Elem()
		case *types.Map:
			elem = u.Elem()
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			add(e, elem)
		}
	}
}
