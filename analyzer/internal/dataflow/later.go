package dataflow

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
)

// Later answers, for the *http.Request and *exec.Cmd values a body
// makes, what the body does with them afterwards: a request given a
// context by req.WithContext(ctx) or req.Clone(ctx) before it is sent, a
// command started as a detached daemon. Only local variables assigned the
// call's first result are followed; the window of a call is from its end
// to the next assignment of the variable from anything else (a second
// http.NewRequest into the same req starts a new window).
type Later struct {
	info *types.Info
	flow *Ctx
	made map[*ast.CallExpr]*types.Var // call → the variable given its first result
	// defs are the positions where a variable is (re)assigned from
	// something other than its own WithContext/Clone.
	defs map[*types.Var][]token.Pos
	// withCtx are the positions of v.WithContext(ctx) and v.Clone(ctx)
	// whose ctx is the request's or of unknown origin.
	withCtx map[*types.Var][]token.Pos
	started map[*types.Var][]token.Pos // cmd.Start()
	release map[*types.Var][]token.Pos // cmd.Process.Release()
	setsid  map[*types.Var][]token.Pos // cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}, or .Setsid = true
	waited  map[*types.Var][]token.Pos // cmd.Run(), Output(), CombinedOutput()
	// discarded are WithContext/Clone calls whose result is thrown away
	// (a statement of its own, or assigned to _): they attach nothing,
	// since both return a copy.
	discarded map[*ast.CallExpr]bool
	// attaches reads what a callee attaches (Attaches).
	attaches func(*types.Func) (Attach, bool)
	// from are the calls a variable is assigned from, nil for anything
	// else; addr the variables whose address is taken (OnInMemory).
	from map[*types.Var][]*ast.CallExpr
	addr map[*types.Var]bool
}

func NewLater(info *types.Info, flow *Ctx, body *ast.BlockStmt, attaches func(*types.Func) (Attach, bool)) *Later {
	l := &Later{attaches: attaches,
		info: info, flow: flow, made: map[*ast.CallExpr]*types.Var{}, defs: map[*types.Var][]token.Pos{},
		withCtx: map[*types.Var][]token.Pos{}, started: map[*types.Var][]token.Pos{},
		release: map[*types.Var][]token.Pos{}, setsid: map[*types.Var][]token.Pos{}, waited: map[*types.Var][]token.Pos{},
		discarded: map[*ast.CallExpr]bool{}, from: map[*types.Var][]*ast.CallExpr{}, addr: map[*types.Var]bool{},
	}
	if body == nil {
		return l
	}
	assign := func(lhs ast.Expr, rhs ast.Expr, first bool, pos token.Pos) {
		v := l.localVar(lhs)
		if v == nil {
			return
		}
		call, _ := ast.Unparen(rhs).(*ast.CallExpr)
		if call != nil && first {
			l.made[call] = v
			l.from[v] = append(l.from[v], call)
		} else {
			l.from[v] = append(l.from[v], nil)
		}
		if call != nil && l.reqMethod(call, v) != "" {
			return // req = req.WithContext(ctx): the same request
		}
		l.defs[v] = append(l.defs[v], pos)
	}
	discard := func(e ast.Expr) {
		if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && l.reqMethod(c, nil) != "" {
			l.discarded[c] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ExprStmt:
			discard(n.X)
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if id, ok := lhs.(*ast.Ident); ok && id.Name == "_" && len(n.Lhs) == len(n.Rhs) {
					discard(n.Rhs[i])
				}
			}
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					assign(n.Lhs[i], n.Rhs[i], true, n.Pos())
				}
			} else if len(n.Rhs) == 1 {
				assign(n.Lhs[0], n.Rhs[0], true, n.Pos())
				for _, lhs := range n.Lhs[1:] {
					assign(lhs, nil, false, n.Pos())
				}
			}
			l.sysProcAttr(n)
		case *ast.ValueSpec:
			for i, id := range n.Names {
				switch {
				case len(n.Names) == len(n.Values):
					assign(id, n.Values[i], true, n.Pos())
				case len(n.Values) == 1 && i == 0:
					assign(id, n.Values[0], true, n.Pos())
				}
			}
		case *ast.CallExpr:
			l.call(n)
		case *ast.UnaryExpr:
			if v := l.localVar(n.X); v != nil && n.Op == token.AND {
				l.addr[v] = true
			}
		}
		return true
	})
	return l
}

// OnInMemory reports whether call is a method call on a local variable
// that only in-memory constructors assign (knowledge.InMemoryCtor:
// gocloud's localsecrets.NewKeeper), whose methods do no I/O whatever
// the type's other implementations do.
func (l *Later) OnInMemory(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v := l.localVar(sel.X)
	if v == nil || l.addr[v] || len(l.from[v]) == 0 {
		return false
	}
	for _, c := range l.from[v] {
		if c == nil {
			return false
		}
		fn := typeutil.StaticCallee(l.info, c)
		if fn == nil || fn.Pkg() == nil || !knowledge.InMemoryCtor(knowledge.Qualified(fn, fn.Pkg().Path())) {
			return false
		}
	}
	return true
}

// localVar returns the local variable e names, or nil.
func (l *Later) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	v, _ := l.info.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// reqMethod returns "WithContext" or "Clone" when call is that method of
// *http.Request on v (on anything when v is nil), else "".
func (l *Later) reqMethod(call *ast.CallExpr, v *types.Var) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || (v != nil && l.localVar(sel.X) != v) {
		return ""
	}
	fn := typeutil.StaticCallee(l.info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.PathHTTP || (fn.Name() != "WithContext" && fn.Name() != "Clone") {
		return ""
	}
	if r := named.Recv(fn); r == nil || !named.Is(r.Type(), true, knowledge.PathHTTP, "Request") {
		return ""
	}
	return fn.Name()
}

// call records the calls on request and command variables.
func (l *Later) call(call *ast.CallExpr) {
	if fn := typeutil.StaticCallee(l.info, call); fn != nil {
		if af, ok := l.attaches(fn); ok && af.Req < len(call.Args) && af.Ctx < len(call.Args) {
			// doRequest(ctx, req) that does req.WithContext(ctx) inside.
			if v := l.localVar(call.Args[af.Req]); v != nil && l.flow.Classify(call.Args[af.Ctx]).Class != CtxDropped {
				l.withCtx[v] = append(l.withCtx[v], call.Pos())
			}
		}
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if m := l.reqMethod(call, nil); m != "" {
		if v := l.localVar(sel.X); v != nil && !l.discarded[call] && len(call.Args) == 1 && l.flow.Classify(call.Args[0]).Class != CtxDropped {
			l.withCtx[v] = append(l.withCtx[v], call.Pos())
		}
		return
	}
	fn := typeutil.StaticCallee(l.info, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	switch key := knowledge.Qualified(fn, fn.Pkg().Path()); key {
	case "os/exec.(*Cmd).Start", "os/exec.(*Cmd).Run", "os/exec.(*Cmd).Output", "os/exec.(*Cmd).CombinedOutput":
		if v := l.localVar(sel.X); v != nil {
			if key == "os/exec.(*Cmd).Start" {
				l.started[v] = append(l.started[v], call.Pos())
			} else {
				l.waited[v] = append(l.waited[v], call.Pos())
			}
		}
	case "os.(*Process).Release":
		if ps, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok && ps.Sel.Name == "Process" {
			if v := l.localVar(ps.X); v != nil {
				l.release[v] = append(l.release[v], call.Pos())
			}
		}
	}
}

// sysProcAttr records cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
// and cmd.SysProcAttr.Setsid = true.
func (l *Later) sysProcAttr(as *ast.AssignStmt) {
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, lhs := range as.Lhs {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		rhs := ast.Unparen(as.Rhs[i])
		var cmd ast.Expr
		switch sel.Sel.Name {
		case "SysProcAttr":
			if setsidLit(l.info, rhs) {
				cmd = sel.X
			}
		case "Setsid":
			if inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok && inner.Sel.Name == "SysProcAttr" && isTrue(l.info, rhs) {
				cmd = inner.X
			}
		}
		if cmd == nil || !named.Is(l.info.TypeOf(cmd), true, "os/exec", "Cmd") {
			continue
		}
		if v := l.localVar(cmd); v != nil {
			l.setsid[v] = append(l.setsid[v], as.Pos())
		}
	}
}

// setsidLit reports whether e is &T{…, Setsid: true, …} or T{…}.
func setsidLit(info *types.Info, e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Setsid" {
				return isTrue(info, ast.Unparen(kv.Value))
			}
		}
	}
	return false
}

func isTrue(info *types.Info, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	c, ok := info.ObjectOf(id).(*types.Const)
	return ok && c.Pkg() == nil && c.Name() == "true"
}

// window returns the positions of ps within the window of call on v.
func (l *Later) window(call *ast.CallExpr, v *types.Var, ps []token.Pos) []token.Pos {
	end := token.Pos(-1) // no later assignment: to the end of the body
	for _, d := range l.defs[v] {
		if d > call.End() && (end < 0 || d < end) {
			end = d
		}
	}
	var out []token.Pos
	for _, p := range ps {
		if p > call.End() && (end < 0 || p < end) {
			out = append(out, p)
		}
	}
	return out
}

// Silenced reports whether the SIO001 call under key is made harmless by
// what the body does later with its result: an http.NewRequest whose
// request is given the request's (or an unknown) context before it is
// sent, an exec.Command started as a detached daemon, which
// exec.CommandContext would kill when the request ends.
func (l *Later) Silenced(key string, call *ast.CallExpr) bool {
	v := l.made[call]
	if v == nil {
		return false
	}
	switch key {
	case "net/http.NewRequest":
		return len(l.window(call, v, l.withCtx[v])) > 0
	case "os/exec.Command":
		if len(l.window(call, v, l.waited[v])) > 0 {
			return false // the request waits for it
		}
		if len(l.window(call, v, l.setsid[v])) > 0 {
			return true
		}
		starts, releases := l.window(call, v, l.started[v]), l.window(call, v, l.release[v])
		return len(starts) > 0 && len(releases) > 0 && releases[len(releases)-1] > starts[0]
	}
	return false
}

// Attach says that a function gives its *http.Request parameter Req the
// context of its context parameter Ctx, by req.WithContext(ctx) or
// req.Clone(ctx) with the result used (x/oauth2's doTokenRoundTrip,
// go-oidc's doRequest). A caller that builds a request with
// http.NewRequest and hands it over with a live context has attached it.
type Attach struct{ Req, Ctx int }

// Attaches says whether the function of sig and body attaches a context
// parameter to a request parameter, and which; attaches reads what its
// callees attach.
func Attaches(info *types.Info, sig *types.Signature, body *ast.BlockStmt, ginFallback bool, attaches func(*types.Func) (Attach, bool)) (Attach, bool) {
	// An attach needs a context parameter and a request one: without
	// them the body's flows (a tenth of a run, over every function of
	// every package) can find none.
	if !hasContextParam(sig) || sig.Params().Len() < 2 {
		return Attach{}, false
	}
	params := map[types.Object]int{}
	for i := range sig.Params().Len() {
		params[sig.Params().At(i)] = i
	}
	l := NewLater(info, NewCtx(info, sig, body, ginFallback), body, attaches)
	var af *Attach
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || af != nil || l.discarded[call] || len(call.Args) != 1 || l.reqMethod(call, nil) == "" {
			return af == nil
		}
		sel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		req, rok := params[objOf(info, sel.X)]
		ctx, cok := params[objOf(info, call.Args[0])]
		if rok && cok && named.IsContext(sig.Params().At(ctx).Type()) {
			af = &Attach{Req: req, Ctx: ctx}
		}
		return af == nil
	})
	if af == nil {
		return Attach{}, false
	}
	return *af, true
}

func hasContextParam(sig *types.Signature) bool {
	for i := range sig.Params().Len() {
		if named.IsContext(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// objOf is the object an identifier expression names, or nil.
func objOf(info *types.Info, e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return info.ObjectOf(id)
	}
	return nil
}
