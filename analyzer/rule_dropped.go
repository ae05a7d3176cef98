package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// SIO002 dropped-context: a call that takes a context is given one the
// request cannot cancel (context.Background(), a detached one, gin's
// *gin.Context under its defaults). Where the context comes from is
// ctxflow.go's; whether the callee can block with it is decided here
// (factlessIdle) and at the root's call (resolveAt: an idle callee of the
// same package is silent).

// droppedContext reports a call whose first argument is a context the
// request cannot cancel. The rule's fixes need the argument (fixArg); a
// framework value (gin's c) also yields what the call leads to otherwise.
func (r *runner) droppedContext(call *ast.CallExpr, sig *types.Signature, fn *types.Func, flow *ctxFlow, gorm *chainFlow, later *laterFlow, mk func(rule, name, detail, hint string) item) (item, bool) {
	if sig != nil && sig.Params().Len() > 0 && len(call.Args) > 0 &&
		isContextType(sig.Params().At(0).Type()) &&
		(fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pathContext) &&
		(!r.thirdParty || fn != nil) {
		if ci := flow.classify(call.Args[0]); ci.class == ctxDropped && !r.factlessIdle(fn) {
			name := types.ExprString(call.Fun)
			if fn != nil && fn.Pkg() != nil {
				name = terminalName(fn)
			}
			arg := ast.Unparen(call.Args[0])
			given := ci.desc
			if id, ok := arg.(*ast.Ident); ok {
				given = id.Name + " (" + ci.desc + ")"
			}
			hint := "pass the request's context, or context.WithoutCancel(ctx) for work that must outlive the request"
			if use := frameworkCtxFix(arg, ci.desc); use != "" {
				hint = "pass " + use
				it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
				it.fixArg = arg
				// Passing c is everywhere in gin services, and the callee's own
				// blocking (a ctx-less query, a sleep) is a problem of its own.
				if rest, ok := r.classifyCall(call, flow, gorm, later, true); ok {
					it.also = &rest
				}
				return it, true
			}
			it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
			if c, ok := arg.(*ast.CallExpr); ok && (ci.desc == "context.Background()" || ci.desc == "context.TODO()") {
				it.fixArg = c
			}
			return it, true
		}
	}
	return item{}, false
}

// factlessIdle reports whether fn, given a dropped context, is a function
// of another analysed package that exports no blocksFact: nothing on its
// paths does I/O or waits (an in-memory validator's VarCtx), so the
// context it is given reaches no blocking operation and is no SIO002.
// The standard library exports no facts (its I/O is judged by the
// tables), so its functions keep the signature rule, as do interface
// methods and func values; the same package's callees are judged in
// resolve (idleCallee), once their summaries are known. A callee that
// returns anything but basic values and errors may return the context
// inside it (plainResults), and is never idle.
func (r *runner) factlessIdle(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.pass.Pkg || knowledge.StdPath(fn.Pkg().Path()) || !plainResults(fn) {
		return false
	}
	if _, ok := r.cfg.Blocking[knowledge.Qualified(fn, fn.Pkg().Path())]; ok {
		return false
	}
	// A request root exports no fact whatever it does (a gRPC method
	// called with context.Background()).
	if sig, _ := fn.Type().(*types.Signature); signatureRoot(sig) != notRoot || grpcRoot(fn) || grpcStreamRoot(fn) || r.configRoot(fn, sig) {
		return false
	}
	var f blocksFact
	if !r.pass.ImportObjectFact(fn, &f) {
		return true
	}
	// A fact holding only interface calls made inside dependencies
	// (dynCall.Dep) is no evidence of I/O, as when they were not kept.
	return len(f.Chain) == 0 && len(f.More) == 0 && !f.Opaque && !ownDyn(f.Dyn)
}

// plainResults reports whether fn returns only basic values and errors:
// nothing that could carry the context it is given to I/O done later (a
// builder such as gorm's db.WithContext(ctx) returns the *gorm.DB that
// its finisher runs with ctx).
func plainResults(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return false
	}
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if _, basic := t.Underlying().(*types.Basic); !basic && !isErrorType(t) {
			return false
		}
	}
	return true
}

// idleDropped reports an SIO002 item whose callee, of this package, shows
// no I/O in its summary, hands the context to nothing unseen and returns
// only plain values: the context reaches nothing that blocks
// (factlessIdle is the same for other packages). A join's worker that
// only selects on its ctx.Done() (opaque) is still idle work for
// joinBlocks.
func (r *runner) idleDropped(it item) bool {
	if it.term.rule != "SIO002" || !r.idleCallee(it) {
		return false
	}
	fn := typeutil.StaticCallee(r.pass.TypesInfo, it.call)
	return !r.byFunc[fn.Origin()].opaque && plainResults(fn)
}
