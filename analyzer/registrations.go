package analyzer

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

// Registration roots and what the run saw.
//
// A call to a router's registration method (knowledge.Registrations, and
// the generated gRPC and connect-go service registrations) hands it
// handlers; resolve follows each handler argument to the functions that
// will run. Those functions are request roots whatever their type: a
// literal or a function of this package becomes a root here (reported
// inside it, as every root), another package's function is reported at
// the argument with its paths.BlocksFact (its own package could not know it
// serves requests). What resolves to nothing is recorded with the reason,
// and the package's result (seen.Package) lists its roots and
// registrations for the roots line and -roots-report.

// registered is what the registrations of this package made roots.
type registered struct {
	funcs map[*types.Func]string  // this package's functions, by framework
	lits  map[*ast.FuncLit]string // this package's literals, by framework
	list  []seen.Registration
	first token.Pos // the first registration call
	// registrars are the package's functions that hand a parameter to a
	// registration (registrarFact), and calls are the package's calls
	// that may reach one, visited once the registrars are known.
	registrars map[*types.Func]*registrarFact
	calls      []siteCall
}

// registrarFact lists the parameters whose values a function registers
// with a router: navidrome's hr(r, path, f) registers a closure that calls
// f, and h(r, path, f) hands hr a literal that calls f. What a caller
// passes there serves requests, as if given to the router itself.
type registrarFact struct {
	Params    []int
	Framework string
}

func (*registrarFact) AFact() {}
func (f *registrarFact) String() string {
	return "registrar" + resolve.IntsString(f.Params) + " " + f.Framework
}

// siteCall is a call to a function of this package, or of another with a
// registrarFact, with what its diagnostics need.
type siteCall struct {
	call    *ast.CallExpr
	fn      *types.Func
	in      string
	ignores []*directive.Ignore
}

// registrar returns fn's registrarFact, or nil.
func (r *scanned) registrar(fn *types.Func) *registrarFact {
	if fn.Pkg() == r.pass.Pkg {
		return r.reg.registrars[fn]
	}
	var f registrarFact
	if r.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// addRegistrar records that p's function registers p; it reports whether
// that is new.
func (r *scanned) addRegistrar(p resolve.ParamRef, framework string) bool {
	f := r.reg.registrars[p.Func]
	if f == nil {
		f = &registrarFact{Framework: framework}
		r.reg.registrars[p.Func] = f
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

// noteCall keeps call for registrarCalls when its callee may be a
// registrar.
func (r *scanned) noteCall(call *ast.CallExpr, in string, ignores []*directive.Ignore) {
	fn := typeutil.StaticCallee(r.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	fn = fn.Origin()
	if fn.Pkg() != r.pass.Pkg && r.registrar(fn) == nil {
		return
	}
	r.reg.calls = append(r.reg.calls, siteCall{call, fn, in, ignores})
}

// registrarCalls treats the arguments given to registrars' parameters as
// registered handlers, until no new registrar is found (a registrar that
// passes its parameter on makes its own callers registrars), then exports
// the package's registrars.
func (r *scanned) registrarCalls() {
	done := map[*ast.CallExpr]map[int]bool{}
	for changed := true; changed; {
		changed = false
		for _, sc := range r.reg.calls {
			f := r.registrar(sc.fn)
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
				reg := seen.Registration{Pos: r.site(sc.call.Pos()), Call: paths.TerminalName(sc.fn), Framework: f.Framework}
				r.registerArgs(&reg, []ast.Expr{sc.call.Args[i]}, sc.in, sc.ignores)
				r.reg.list = append(r.reg.list, reg)
				if !r.reg.first.IsValid() {
					r.reg.first = sc.call.Pos()
				}
			}
		}
	}
	fns := make([]*types.Func, 0, len(r.reg.registrars))
	for fn := range r.reg.registrars {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for _, fn := range fns {
		r.pass.ExportObjectFact(fn, r.reg.registrars[fn])
	}
	r.reg.calls = nil
}

// isHandlerType reports whether a value of type t is a request handler by
// itself: a handler signature or a type with a ServeHTTP method.
func isHandlerType(t types.Type) bool {
	if sig, ok := t.Underlying().(*types.Signature); ok {
		return resolve.SignatureRoot(sig) != resolve.NotRoot
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	_, ok := obj.(*types.Func)
	return ok
}

// registration records call when it registers handlers with a router, and
// makes the functions it resolves to request roots.
func (r *scanned) registration(call *ast.CallExpr, in string, ignores []*directive.Ignore) {
	info := r.pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return // error.Error and other universe methods have no package
	}
	fn = fn.Origin()
	reg := seen.Registration{Pos: r.site(call.Pos()), Call: paths.TerminalName(fn)}
	if k := knowledge.RegistrationOf(fn); k != nil {
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
		r.registerArgs(&reg, args, in, ignores)
	} else if svc, ok := knowledge.ServiceOf(fn); ok && svc.Arg < len(call.Args) {
		reg.Framework = svc.Framework
		a := call.Args[svc.Arg]
		ts, why := r.handlers.Service(a, svc.Iface)
		if len(ts) == 0 {
			reg.Unresolved = append(reg.Unresolved, exprText(a)+": "+why)
		}
		r.addTargets(&reg, a, ts, in, ignores)
	} else {
		return
	}
	if !r.reg.first.IsValid() {
		r.reg.first = call.Pos()
	}
	r.reg.list = append(r.reg.list, reg)
}

// registerArgs follows each handler argument of a registration to the
// functions that will run and makes them roots. A parameter of the
// function around the call makes that function a registrar: its callers'
// arguments are followed instead (registrarCalls).
func (r *scanned) registerArgs(reg *seen.Registration, args []ast.Expr, in string, ignores []*directive.Ignore) {
	for _, a := range args {
		if p, ok := r.handlers.Param(a); ok {
			r.addRegistrar(p, reg.Framework)
			reg.Handlers = append(reg.Handlers, "what the callers of "+paths.DisplayName(p.Func)+" pass as "+exprText(a))
			continue
		}
		ts, why := r.handlers.Resolve(a)
		if len(ts) == 0 {
			reg.Unresolved = append(reg.Unresolved, exprText(a)+": "+why)
		}
		r.addTargets(reg, a, ts, in, ignores)
	}
}

// addTargets makes the functions a registration's argument resolved to
// request roots: this package's here, another package's at the argument.
func (r *scanned) addTargets(reg *seen.Registration, arg ast.Expr, ts []resolve.Target, in string, ignores []*directive.Ignore) {
	for _, t := range ts {
		switch {
		case t.Lit != nil:
			reg.Handlers = append(reg.Handlers, "func literal at "+paths.ShortSite(r.site(t.Lit.Pos())))
			if _, ok := r.reg.lits[t.Lit]; !ok {
				r.reg.lits[t.Lit] = reg.Framework
			}
			// The literal runs what it calls through the parameters
			// of the function around it (an adapter's f).
			for _, p := range r.handlers.CalledParams(t.Lit, arg.Pos()) {
				r.addRegistrar(p, reg.Framework)
			}
		case t.Call:
			reg.Handlers = append(reg.Handlers, "what "+paths.DisplayName(t.Func)+" returns")
		case t.Func.Pkg() == r.pass.Pkg:
			reg.Handlers = append(reg.Handlers, paths.DisplayName(t.Func))
			if _, ok := r.reg.funcs[t.Func]; !ok {
				r.reg.funcs[t.Func] = reg.Framework
			}
		default:
			reg.Handlers = append(reg.Handlers, paths.DisplayName(t.Func))
			if t.Func.Pkg() != nil && !knowledge.StdPath(t.Func.Pkg().Path()) {
				r.cb.addExt(adaptedRef{fn: t.Func, pos: arg.Pos(), end: arg.End(), in: in, ignores: ignores,
					how: seen.HowRegistration, framework: reg.Framework})
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

// frameworkOf names the framework of a root kind in the roots line.
func frameworkOf(k resolve.RootKind) string {
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

// seenResult is the package's result: its roots and registrations.
func (r *scanned) seenResult(roots []*paths.Summary) *seen.Package {
	res := &seen.Package{Path: r.pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: r.reg.list}
	for _, s := range roots {
		name := s.Label
		switch {
		case name != "":
		case s.Func != nil:
			name = paths.DisplayName(s.Func)
		default:
			name = s.Name
		}
		res.Roots = append(res.Roots, seen.Root{Name: name, Pos: r.site(s.Pos), Framework: s.Framework, How: s.How, Wraps: s.Wraps,
			Unfollowed: s.Unfollowed, End: r.endSite(s.End), Key: s.Key, Branch: s.Branch})
	}
	if res.Registrations == nil {
		res.Registrations = []seen.Registration{}
	}
	return res
}

// reportBlind reports, with Config.StrictRoots, a package that registers
// routes but where no request root was found.
func (r *scanned) reportBlind(res *seen.Package) {
	if !r.cfg.StrictRoots || !res.Blind() {
		return
	}
	why := ""
	if regs := res.Registrations; len(regs) > 0 && len(regs[0].Unresolved) > 0 {
		why = " (first: " + regs[0].Unresolved[0] + ")"
	}
	r.pass.Report(analysis.Diagnostic{Pos: r.reg.first, Category: "SIO000",
		Message: "this package registers routes (" + strconv.Itoa(len(res.Registrations)) + " registration calls) but syncio found no request root in it, so none of their handlers was analysed" + why +
			"; mark the handlers //syncio:handler or pass -roots (docs/frameworks.md) (SIO000)"})
}

// endSite is r.site of end, or "" when there is none (a root that is
// another package's function).
func (r *pkgView) endSite(end token.Pos) string {
	if !end.IsValid() {
		return ""
	}
	return r.site(end)
}
