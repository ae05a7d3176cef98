package registry

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Registry is what the registrations of one package made roots.
type Registry struct {
	pass     *analysis.Pass
	handlers *resolve.Handlers
	// site is the analyzer's "file:line:col" of a position.
	site func(token.Pos) string
	// external is handed each other package's function a registration
	// takes: the analyzer reports it at the argument, by its fact.
	external func(Ref)

	funcs map[*types.Func]string  // this package's functions, by framework
	lits  map[*ast.FuncLit]string // this package's literals, by framework
	list  []seen.Registration
	first token.Pos // the first registration call
	// registrars are the package's functions that hand a parameter to a
	// registration (RegistrarFact), and calls are the package's calls
	// that may reach one, visited once the registrars are known.
	registrars map[*types.Func]*RegistrarFact
	calls      []siteCall
}

// Ref is another package's function that a registration call here takes,
// at the argument [Pos, End) of a call in the function In.
type Ref struct {
	Fn        *types.Func
	Pos, End  token.Pos
	In        string
	Ignores   []*directive.Ignore
	Framework string
}

// New returns the registry of pass's package; handlers follows handler
// values, site writes positions as facts do, and external is handed the
// other packages' functions registered here.
func New(pass *analysis.Pass, handlers *resolve.Handlers, site func(token.Pos) string, external func(Ref)) *Registry {
	return &Registry{pass: pass, handlers: handlers, site: site, external: external,
		funcs: map[*types.Func]string{}, lits: map[*ast.FuncLit]string{}, registrars: map[*types.Func]*RegistrarFact{}}
}

// Func returns the framework of the registration that made fn, a function
// of this package, a root; ok is false when none did.
func (g *Registry) Func(fn *types.Func) (framework string, ok bool) {
	framework, ok = g.funcs[fn]
	return framework, ok
}

// Lit is Func for a func literal.
func (g *Registry) Lit(lit *ast.FuncLit) (framework string, ok bool) {
	framework, ok = g.lits[lit]
	return framework, ok
}

// First is the package's first registration call, or token.NoPos.
func (g *Registry) First() token.Pos { return g.first }

// Visit records call when it registers handlers with a router, making the
// functions it resolves to request roots, and keeps it for Registrars when
// its callee may be a registrar. in names the function around the call,
// and ignores are that function's doc-comment ignores.
func (g *Registry) Visit(call *ast.CallExpr, in string, ignores []*directive.Ignore) {
	g.registration(call, in, ignores)
	g.noteCall(call, in, ignores)
}

// VisitAssign records the handlers that n, an assignment or a composite
// literal, stores into a router's handler fields (knowledge.FieldOf):
// r.NotFoundHandler = h, &httprouter.Router{PanicHandler: f}. Each field
// set counts as a registration call.
func (g *Registry) VisitAssign(n ast.Node, in string, ignores []*directive.Ignore) {
	info := g.pass.TypesInfo
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
			return
		}
		for i, l := range n.Lhs {
			sx, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok {
				continue
			}
			sel := info.Selections[sx]
			if sel == nil || sel.Kind() != types.FieldVal {
				continue
			}
			field, _ := sel.Obj().(*types.Var)
			g.field(l, knowledge.FieldOf(fieldOwner(sel), field), field, n.Rhs[i], in, ignores)
		}
	case *ast.CompositeLit:
		t := info.TypeOf(n)
		for _, e := range n.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			id, ok := kv.Key.(*ast.Ident)
			if !ok {
				continue
			}
			field, _ := info.Uses[id].(*types.Var)
			g.field(kv, knowledge.FieldOf(t, field), field, kv.Value, in, ignores)
		}
	}
}

// field records the registration of value, set at at into field, a
// router's handler field of the table (k), when k is not nil.
func (g *Registry) field(at ast.Node, k *knowledge.Registration, field *types.Var, value ast.Expr, in string, ignores []*directive.Ignore) {
	if k == nil {
		return
	}
	if id, ok := ast.Unparen(value).(*ast.Ident); ok {
		if _, isNil := g.pass.TypesInfo.Uses[id].(*types.Nil); isNil {
			return
		}
	}
	reg := seen.Registration{Pos: g.site(at.Pos()), Call: k.Type + "." + field.Name(), Framework: k.Framework}
	if field.Pkg() != nil {
		reg.Call = field.Pkg().Name() + "." + reg.Call
	}
	g.registerArgs(&reg, []ast.Expr{value}, in, ignores)
	if !g.first.IsValid() {
		g.first = at.Pos()
	}
	g.list = append(g.list, reg)
}

// fieldOwner is the type that declares the field sel selects: the
// receiver's, or that of the embedded field the selection goes through
// (a service's struct embedding *mux.Router).
func fieldOwner(sel *types.Selection) types.Type {
	t := sel.Recv()
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
	}
	return t
}

// RegistrarFact lists the parameters whose values a function registers
// with a router: navidrome's hr(r, path, f) registers a closure that calls
// f, and h(r, path, f) hands hr a literal that calls f. What a caller
// passes there serves requests, as if given to the router itself.
type RegistrarFact struct {
	Params    []int
	Framework string
}

func (*RegistrarFact) AFact() {}
func (f *RegistrarFact) String() string {
	return "registrar" + resolve.IntsString(f.Params) + " " + f.Framework
}

// siteCall is a call to a function of this package, or of another with a
// RegistrarFact, with what its diagnostics need.
type siteCall struct {
	call    *ast.CallExpr
	fn      *types.Func
	in      string
	ignores []*directive.Ignore
}

// registrar returns fn's RegistrarFact, or nil.
func (g *Registry) registrar(fn *types.Func) *RegistrarFact {
	if fn.Pkg() == g.pass.Pkg {
		return g.registrars[fn]
	}
	var f RegistrarFact
	if g.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// addRegistrar records that p's function registers p; it reports whether
// that is new.
func (g *Registry) addRegistrar(p resolve.ParamRef, framework string) bool {
	f := g.registrars[p.Func]
	if f == nil {
		f = &RegistrarFact{Framework: framework}
		g.registrars[p.Func] = f
	}
	for _, i := range f.Params {
		if i == p.Index {
			return false
		}
	}
	f.Params = append(f.Params, p.Index)
	sort.Ints(f.Params)
	return true
}

// noteCall keeps call for Registrars when its callee may be a
// registrar.
func (g *Registry) noteCall(call *ast.CallExpr, in string, ignores []*directive.Ignore) {
	fn := typeutil.StaticCallee(g.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	fn = fn.Origin()
	if fn.Pkg() != g.pass.Pkg && g.registrar(fn) == nil {
		return
	}
	g.calls = append(g.calls, siteCall{call, fn, in, ignores})
}

// Registrars treats the arguments given to registrars' parameters as
// registered handlers, until no new registrar is found (a registrar that
// passes its parameter on makes its own callers registrars), then exports
// the package's registrars.
func (g *Registry) Registrars() {
	done := map[*ast.CallExpr]map[int]bool{}
	for changed := true; changed; {
		changed = false
		for _, sc := range g.calls {
			f := g.registrar(sc.fn)
			if f == nil {
				continue
			}
			for _, i := range f.Params {
				if done[sc.call][i] || i >= len(sc.call.Args) || sc.call.Ellipsis.IsValid() {
					continue
				}
				if done[sc.call] == nil {
					done[sc.call] = map[int]bool{}
				}
				done[sc.call][i] = true
				changed = true
				reg := seen.Registration{Pos: g.site(sc.call.Pos()), Call: paths.TerminalName(sc.fn), Framework: f.Framework}
				g.registerArgs(&reg, []ast.Expr{sc.call.Args[i]}, sc.in, sc.ignores)
				g.list = append(g.list, reg)
				if !g.first.IsValid() {
					g.first = sc.call.Pos()
				}
			}
		}
	}
	fns := make([]*types.Func, 0, len(g.registrars))
	for fn := range g.registrars {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		g.pass.ExportObjectFact(fn, g.registrars[fn])
	}
	g.calls = nil
}

// IsHandlerType reports whether a value of type t is a request handler by
// itself: a handler signature or a type with a ServeHTTP method.
func IsHandlerType(t types.Type) bool {
	if sig, ok := t.Underlying().(*types.Signature); ok {
		return resolve.SignatureRoot(sig) != resolve.NotRoot
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	_, ok := obj.(*types.Func)
	return ok
}

// registration records call when it registers handlers with a router, and
// makes the functions it resolves to request roots.
func (g *Registry) registration(call *ast.CallExpr, in string, ignores []*directive.Ignore) {
	info := g.pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return // error.Error and other universe methods have no package
	}
	fn = fn.Origin()
	k := knowledge.RegistrationOf(fn)
	svc, isSvc := knowledge.ServiceOf(fn)
	if k == nil && (!isSvc || svc.Arg >= len(call.Args)) {
		return // most calls: no site to format
	}
	reg := seen.Registration{Pos: g.site(call.Pos()), Call: paths.TerminalName(fn)}
	if k != nil {
		if k.Handler >= len(call.Args) {
			return
		}
		reg.Framework = k.Framework
		end := k.Handler + 1
		if k.Chain {
			end = len(call.Args)
		}
		args := call.Args[k.Handler:end]
		if call.Ellipsis.IsValid() && end == len(call.Args) {
			last := args[len(args)-1]
			args = args[:len(args)-1]
			reg.Unresolved = append(reg.Unresolved, exprText(last)+": a slice of handlers")
		}
		g.registerArgs(&reg, g.handlerArgs(fn, k.Handler, args), in, ignores)
	} else {
		reg.Framework = svc.Framework
		a := call.Args[svc.Arg]
		ts, why := g.handlers.Service(a, svc.Iface)
		if len(ts) == 0 {
			reg.Unresolved = append(reg.Unresolved, exprText(a)+": "+why)
		}
		g.addTargets(&reg, a, ts, in, ignores)
	}
	if !g.first.IsValid() {
		g.first = call.Pos()
	}
	g.list = append(g.list, reg)
}

// handlerArgs drops, from the arguments args of a call of fn that start
// at index first, those given to a parameter of type any whose own type
// cannot be a handler: fiber's Use(args ...any) takes a prefix, a
// []string of prefixes and (v3) a sub-app among its handlers. A func, a
// type with a ServeHTTP method, or a value of interface type (which may
// hold one) stays.
func (g *Registry) handlerArgs(fn *types.Func, first int, args []ast.Expr) []ast.Expr {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Params().Len() == 0 {
		return args
	}
	var out []ast.Expr
	for i, a := range args {
		if isEmptyInterface(paramType(sig, first+i)) && !mayBeHandler(g.pass.TypesInfo.TypeOf(a)) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// paramType is the type of sig's parameter that takes argument i, a
// variadic parameter's element type for the arguments it gathers.
func paramType(sig *types.Signature, i int) types.Type {
	ps := sig.Params()
	if i < ps.Len()-1 || !sig.Variadic() {
		if i >= ps.Len() {
			return nil
		}
		return ps.At(i).Type()
	}
	if sl, ok := ps.At(ps.Len() - 1).Type().(*types.Slice); ok {
		return sl.Elem()
	}
	return nil
}

func isEmptyInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	it, ok := t.Underlying().(*types.Interface)
	return ok && it.NumMethods() == 0
}

// mayBeHandler reports whether a value of type t may be a handler: a
// func, a type with a ServeHTTP method, an interface value, or a router
// of the table (a sub-app, which registerArgs names).
func mayBeHandler(t types.Type) bool {
	if t == nil || knowledge.IsRouter(t) {
		return true
	}
	switch t.Underlying().(type) {
	case *types.Signature, *types.Interface:
		return true
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	_, ok := obj.(*types.Func)
	return ok
}

// registerArgs follows each handler argument of a registration to the
// functions that will run and makes them roots. A parameter of the
// function around the call makes that function a registrar: its callers'
// arguments are followed instead (Registrars).
func (g *Registry) registerArgs(reg *seen.Registration, args []ast.Expr, in string, ignores []*directive.Ignore) {
	for _, a := range args {
		if p, ok := g.handlers.Param(a); ok {
			g.addRegistrar(p, reg.Framework)
			reg.Handlers = append(reg.Handlers, "what the callers of "+paths.DisplayName(p.Func)+" pass as "+exprText(a))
			continue
		}
		if knowledge.IsRouter(g.pass.TypesInfo.TypeOf(a)) {
			// A sub-router (chi's Mount, fiber's Use of an app): its own
			// registration calls find its handlers.
			reg.Handlers = append(reg.Handlers, "the routes registered on "+exprText(a))
			continue
		}
		ts, ps, why := g.handlers.ResolveArg(a)
		// A value made from a parameter (chain(h, m...).toEchoHandler())
		// registers what the callers pass there, as the parameter itself
		// would.
		for _, p := range ps {
			g.addRegistrar(p, reg.Framework)
			reg.Handlers = append(reg.Handlers, "what the callers of "+paths.DisplayName(p.Func)+" pass as its parameter "+strconv.Itoa(p.Index+1))
		}
		if len(ts) == 0 && len(ps) == 0 {
			reg.Unresolved = append(reg.Unresolved, exprText(a)+": "+why)
		}
		g.addTargets(reg, a, ts, in, ignores)
	}
}

// addTargets makes the functions a registration's argument resolved to
// request roots: this package's here, another package's at the argument.
func (g *Registry) addTargets(reg *seen.Registration, arg ast.Expr, ts []resolve.Target, in string, ignores []*directive.Ignore) {
	for _, t := range ts {
		switch {
		case t.Lit != nil:
			reg.Handlers = append(reg.Handlers, "func literal at "+paths.ShortSite(g.site(t.Lit.Pos())))
			if _, ok := g.lits[t.Lit]; !ok {
				g.lits[t.Lit] = reg.Framework
			}
			// The literal runs what it calls through the parameters
			// of the function around it (an adapter's f).
			for _, p := range g.handlers.CalledParams(t.Lit, arg.Pos()) {
				g.addRegistrar(p, reg.Framework)
			}
		case t.Call:
			reg.Handlers = append(reg.Handlers, "what "+paths.DisplayName(t.Func)+" returns")
		case t.Func.Pkg() == g.pass.Pkg:
			reg.Handlers = append(reg.Handlers, paths.DisplayName(t.Func))
			if _, ok := g.funcs[t.Func]; !ok {
				g.funcs[t.Func] = reg.Framework
			}
		default:
			reg.Handlers = append(reg.Handlers, paths.DisplayName(t.Func))
			if t.Func.Pkg() != nil && !knowledge.StdPath(t.Func.Pkg().Path()) {
				g.external(Ref{Fn: t.Func, Pos: arg.Pos(), End: arg.End(), In: in, Ignores: ignores, Framework: reg.Framework})
			}
		}
	}
}

// exprText is the source of e, shortened to one line.
func exprText(e ast.Expr) string {
	s := types.ExprString(e)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// FrameworkOf names the framework of a root kind in the roots line.
func FrameworkOf(k resolve.RootKind) string {
	switch k {
	case resolve.RootHTTP:
		return "net/http"
	case resolve.RootGin:
		return "gin"
	case resolve.RootEcho:
		return "echo"
	case resolve.RootFiberV2, resolve.RootFiberV3:
		return "fiber"
	case resolve.RootGRPC, resolve.RootGRPCStream:
		return "grpc"
	case resolve.RootHTTPRouter:
		return "httprouter"
	case resolve.RootConnect:
		return "connect"
	case resolve.RootHertz:
		return "hertz"
	}
	return "custom"
}

// Result is the package's result: its roots and registrations.
func (g *Registry) Result(roots []*paths.Summary) *seen.Package {
	res := &seen.Package{Path: g.pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: g.list}
	for _, s := range roots {
		name := s.Label
		switch {
		case name != "":
		case s.Func != nil:
			name = paths.DisplayName(s.Func)
		default:
			name = s.Name
		}
		res.Roots = append(res.Roots, seen.Root{Name: name, Pos: g.site(s.Pos), Framework: s.Framework, How: s.How, Wraps: s.Wraps,
			Unfollowed: s.Unfollowed, End: g.endSite(s.End), Key: s.Key, Branch: s.Branch})
	}
	if res.Registrations == nil {
		res.Registrations = []seen.Registration{}
	}
	return res
}

// endSite is site of end, or "" when there is none (a root that is
// another package's function).
func (g *Registry) endSite(end token.Pos) string {
	if !end.IsValid() {
		return ""
	}
	return g.site(end)
}
