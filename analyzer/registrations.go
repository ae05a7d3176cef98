package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
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
// the argument with its blocksFact (its own package could not know it
// serves requests). What resolves to nothing is recorded with the reason,
// and the package's result (seen.Package) lists its roots and
// registrations for the roots line and -roots-report.

// registered is what the registrations of this package made roots.
type registered struct {
	funcs map[*types.Func]string  // this package's functions, by framework
	lits  map[*ast.FuncLit]string // this package's literals, by framework
	list  []seen.Registration
	first token.Pos // the first registration call
}

// isHandlerType reports whether a value of type t is a request handler by
// itself: a handler signature or a type with a ServeHTTP method.
func isHandlerType(t types.Type) bool {
	if sig, ok := t.Underlying().(*types.Signature); ok {
		return signatureRoot(sig) != notRoot
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	_, ok := obj.(*types.Func)
	return ok
}

// registration records call when it registers handlers with a router, and
// makes the functions it resolves to request roots.
func (r *runner) registration(call *ast.CallExpr, in string, ignores []*ignore) {
	info := r.pass.TypesInfo
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return // error.Error and other universe methods have no package
	}
	fn = fn.Origin()
	reg := seen.Registration{Pos: r.site(call.Pos()), Call: terminalName(fn)}
	type found struct {
		resolve.Target
		arg ast.Expr
	}
	var targets []found
	unresolved := func(a ast.Expr, why string) {
		reg.Unresolved = append(reg.Unresolved, exprText(a)+": "+why)
	}
	if k := knowledge.RegistrationOf(fn); k != nil {
		if k.Handler >= len(call.Args) {
			return
		}
		reg.Framework = k.Framework
		end := k.Handler + 1
		if k.Chain {
			end = len(call.Args)
		}
		for i, a := range call.Args[k.Handler:end] {
			if call.Ellipsis.IsValid() && k.Handler+i == len(call.Args)-1 {
				unresolved(a, "a slice of handlers")
				continue
			}
			ts, why := r.handlers.Resolve(a)
			if len(ts) == 0 {
				unresolved(a, why)
			}
			for _, t := range ts {
				targets = append(targets, found{t, a})
			}
		}
	} else if svc, ok := knowledge.ServiceOf(fn); ok && svc.Arg < len(call.Args) {
		reg.Framework = svc.Framework
		a := call.Args[svc.Arg]
		ts, why := r.handlers.Service(a, svc.Iface)
		if len(ts) == 0 {
			unresolved(a, why)
		}
		for _, t := range ts {
			targets = append(targets, found{t, a})
		}
	} else {
		return
	}
	for _, t := range targets {
		switch {
		case t.Lit != nil:
			reg.Handlers = append(reg.Handlers, "func literal at "+shortSite(r.site(t.Lit.Pos())))
			if _, ok := r.reg.lits[t.Lit]; !ok {
				r.reg.lits[t.Lit] = reg.Framework
			}
		case t.Call:
			reg.Handlers = append(reg.Handlers, "what "+displayName(t.Func)+" returns")
		case t.Func.Pkg() == r.pass.Pkg:
			reg.Handlers = append(reg.Handlers, displayName(t.Func))
			if _, ok := r.reg.funcs[t.Func]; !ok {
				r.reg.funcs[t.Func] = reg.Framework
			}
		default:
			reg.Handlers = append(reg.Handlers, displayName(t.Func))
			if t.Func.Pkg() != nil && !stdlibPath(t.Func.Pkg().Path()) {
				r.cb.addExt(adaptedRef{fn: t.Func, pos: t.arg.Pos(), end: t.arg.End(), in: in, ignores: ignores,
					how: seen.HowRegistration, framework: reg.Framework})
			}
		}
	}
	if !r.reg.first.IsValid() {
		r.reg.first = call.Pos()
	}
	r.reg.list = append(r.reg.list, reg)
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
func frameworkOf(k rootKind) string {
	switch k {
	case rootHTTP:
		return "net/http"
	case rootGin:
		return "gin"
	case rootEcho:
		return "echo"
	case rootFiberV2, rootFiberV3:
		return "fiber"
	case rootGRPC, rootGRPCStream:
		return "grpc"
	case rootHTTPRouter:
		return "httprouter"
	case rootConnect:
		return "connect"
	case rootHertz:
		return "hertz"
	}
	return "custom"
}

// seenResult is the package's result: its roots and registrations.
func (r *runner) seenResult(roots []*fnSummary) *seen.Package {
	res := &seen.Package{Path: r.pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: r.reg.list}
	for _, s := range roots {
		name := s.label
		switch {
		case name != "":
		case s.fn != nil:
			name = displayName(s.fn)
		default:
			name = s.name
		}
		res.Roots = append(res.Roots, seen.Root{Name: name, Pos: r.site(s.pos), Framework: s.framework, How: s.how, Wraps: s.wraps})
	}
	if res.Registrations == nil {
		res.Registrations = []seen.Registration{}
	}
	return res
}

// reportBlind reports, with Config.StrictRoots, a package that registers
// routes but where no request root was found.
func (r *runner) reportBlind(res *seen.Package) {
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
