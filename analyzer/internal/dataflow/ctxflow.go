package dataflow

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// CtxClass is what the analyzer knows about where a context value came from.
type CtxClass int

const (
	CtxUnset   CtxClass = iota // no assignment seen yet (fixpoint start)
	CtxUnknown                 // could not tell: never flagged
	CtxRequest                 // the request's context, derived from it, or deliberately detached
	CtxDropped                 // Background/TODO or derived from them
)

// CtxInfo is a classification with, for dropped contexts, how to name it.
type CtxInfo struct {
	Class CtxClass
	Desc  string
}

const derivedFrom = "a context derived from "

// Ctx classifies context expressions inside one function body. Local
// variables are tracked through plain assignments; anything else (fields,
// function results, globals) is unknown.
type Ctx struct {
	info *types.Info
	vars map[*types.Var]CtxInfo
	// ginFallback: the program sets gin's ContextWithFallback = true, so
	// a *gin.Context reads its request's context.
	ginFallback bool
}

var deriveFuncs = map[string]bool{
	"WithCancel": true, "WithCancelCause": true, "WithDeadline": true, "WithDeadlineCause": true,
	"WithTimeout": true, "WithTimeoutCause": true, "WithValue": true,
}

// NewCtx seeds params of context type as request contexts and runs a
// small fixpoint over the assignments in body.
func NewCtx(info *types.Info, sig *types.Signature, body *ast.BlockStmt, ginFallback bool) *Ctx {
	f := &Ctx{info: info, vars: map[*types.Var]CtxInfo{}, ginFallback: ginFallback}
	type assign struct {
		v   *types.Var
		rhs ast.Expr // nil: unknown source
	}
	var assigns []assign
	if sig != nil {
		for i := range sig.Params().Len() {
			p := sig.Params().At(i)
			if ci, ok := f.frameworkValue(p.Type()); ok {
				f.vars[p] = ci
			} else if implementsContext(p.Type()) {
				f.vars[p] = CtxInfo{Class: CtxRequest}
			}
		}
	}
	lhsVar := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || id.Name == "_" {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || !implementsContext(v.Type()) {
			return nil
		}
		return v
	}
	pair := func(lhs []ast.Expr, rhs []ast.Expr) {
		for i, l := range lhs {
			v := lhsVar(l)
			if v == nil {
				continue
			}
			var r ast.Expr
			switch {
			case len(lhs) == len(rhs):
				r = rhs[i]
			case len(rhs) == 1 && i == 0:
				// ctx, cancel := context.WithTimeout(parent, d)
				r = rhs[0]
			}
			assigns = append(assigns, assign{v, r})
		}
	}
	if body != nil {
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				pair(n.Lhs, n.Rhs)
			case *ast.ValueSpec:
				if len(n.Values) > 0 {
					lhs := make([]ast.Expr, len(n.Names))
					for i, id := range n.Names {
						lhs[i] = id
					}
					pair(lhs, n.Values)
				}
			case *ast.UnaryExpr:
				// &ctx lets anything write it: give up on that variable.
				if v := lhsVar(n.X); v != nil && n.Op.String() == "&" {
					assigns = append(assigns, assign{v, nil})
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if v := lhsVar(e); v != nil {
						assigns = append(assigns, assign{v, nil})
					}
				}
			}
			return true
		})
	}
	// Bounded fixpoint: each round recomputes every variable from its seed
	// (params) and its assignments, so the result does not oscillate.
	seeds := f.vars
	for range 6 {
		next := map[*types.Var]CtxInfo{}
		for v, ci := range seeds {
			next[v] = ci
		}
		for _, a := range assigns {
			ci := CtxInfo{Class: CtxUnknown}
			if a.rhs != nil {
				ci = f.Classify(a.rhs)
			}
			next[a.v] = Meet(next[a.v], ci)
		}
		changed := len(next) != len(f.vars)
		for v, ci := range next {
			if f.vars[v] != ci {
				changed = true
			}
		}
		f.vars = next
		if !changed {
			break
		}
	}
	return f
}

func Meet(a, b CtxInfo) CtxInfo {
	switch {
	case a.Class == CtxUnset:
		return b
	case b.Class == CtxUnset:
		return a
	case a.Class == b.Class:
		return a
	}
	return CtxInfo{Class: CtxUnknown}
}

// implementsContext reports whether t is context.Context or a type that
// can be used as one (gin's *gin.Context, fasthttp's *RequestCtx, …). Only
// method names are compared: enough to classify, and it needs no access to
// the real context package.
func implementsContext(t types.Type) bool {
	if t == nil {
		return false
	}
	if named.IsContext(t) {
		return true
	}
	// A method set is costly to build (NewMethodSet was an eighth of a
	// run's CPU, asked of every variable assigned in every body), and few
	// types have a Deadline at all: a lookup of that one name, which also
	// finds pointer methods, rules the rest out first.
	if obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Deadline"); obj == nil {
		return false
	}
	ms := types.NewMethodSet(t)
	for _, name := range []string{"Deadline", "Done", "Err", "Value"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			return false
		}
	}
	return true
}

// Descriptions of framework values that satisfy context.Context but are
// never cancelled: gin's Done is nil under the default
// ContextWithFallback = false, and fiber v3's DefaultCtx.Done always
// returns nil (its doc comment: "Ctx can never be canceled").
const (
	ginCtxDesc   = "a *gin.Context, never cancelled unless the engine sets ContextWithFallback = true"
	fiberCtxDesc = "a fiber.Ctx, which is never cancelled"
)

// frameworkValue classifies a value of a framework's request type that
// can be passed as a context.Context: gin's *gin.Context and fiber v3's
// Ctx. ok is false for other types.
func (f *Ctx) frameworkValue(t types.Type) (CtxInfo, bool) {
	switch {
	case named.Is(t, true, knowledge.PathGin, "Context"):
		if f.ginFallback {
			return CtxInfo{Class: CtxRequest}, true
		}
		return CtxInfo{Class: CtxDropped, Desc: ginCtxDesc}, true
	case named.Is(t, false, knowledge.PathFiberV3, "Ctx"):
		return CtxInfo{Class: CtxDropped, Desc: fiberCtxDesc}, true
	}
	return CtxInfo{}, false
}

// FrameworkCtxFix is the expression that gives the request's context
// instead of the framework value e, for the message and the fix; "" when
// e is no such value.
func FrameworkCtxFix(e ast.Expr, desc string) string {
	switch desc {
	case ginCtxDesc:
		return types.ExprString(e) + ".Request.Context()"
	case fiberCtxDesc:
		return types.ExprString(e) + ".Context()"
	}
	return ""
}

// Classify says where the context value e comes from.
func (f *Ctx) Classify(e ast.Expr) CtxInfo {
	e = ast.Unparen(e)
	if tv, ok := f.info.Types[e]; ok {
		if ci, ok := f.frameworkValue(tv.Type); ok {
			return ci
		}
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := f.info.ObjectOf(e).(*types.Var); ok {
			if ci, ok := f.vars[v]; ok && ci.Class != CtxUnset {
				return ci
			}
		}
	case *ast.CallExpr:
		if m, _ := typeutil.Callee(f.info, e).(*types.Func); resolve.IsStreamContext(m) {
			// stream.Context() of a gRPC streaming call: an interface
			// method, so it has no static callee.
			return CtxInfo{Class: CtxRequest}
		}
		fn := typeutil.StaticCallee(f.info, e)
		if fn == nil || fn.Pkg() == nil {
			return CtxInfo{Class: CtxUnknown}
		}
		path, name := fn.Pkg().Path(), fn.Name()
		recv := named.Recv(fn)
		switch {
		case path == knowledge.PathContext && recv == nil && (name == "Background" || name == "TODO"):
			return CtxInfo{Class: CtxDropped, Desc: "context." + name + "()"}
		case path == knowledge.PathContext && recv == nil && name == "WithoutCancel":
			// A deliberate detach: the caller chose to outlive the request.
			return CtxInfo{Class: CtxRequest}
		case path == knowledge.PathContext && recv == nil && deriveFuncs[name] && len(e.Args) > 0:
			ci := f.Classify(e.Args[0])
			if ci.Class == CtxDropped && !strings.HasPrefix(ci.Desc, derivedFrom) {
				ci.Desc = derivedFrom + ci.Desc
			}
			return ci
		case path == knowledge.PathHTTP && name == "Context" && recv != nil && named.Is(recv.Type(), true, knowledge.PathHTTP, "Request"):
			return CtxInfo{Class: CtxRequest}
		case (path == knowledge.PathFiberV2 || path == knowledge.PathFiberV3) && recv != nil && (name == "Context" || name == "UserContext"):
			return CtxInfo{Class: CtxRequest}
		}
	}
	return CtxInfo{Class: CtxUnknown}
}

// GinDependent reports whether a finding's detail says it is one only
// because a *gin.Context is never cancelled under gin's defaults: whether
// it is a finding is the engine's setting's (internal/ginsetting).
func GinDependent(detail string) bool { return strings.Contains(detail, ginCtxDesc) }
