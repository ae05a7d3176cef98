package resolve

import (
	"go/ast"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// Callbacks run on the spot.
//
// A func literal or function value passed to a parameter that the callee
// calls before it returns (gorm's Transaction, a cache loader, a retry
// helper, withParam(c, "id", func(id uint){…})) runs on the caller's
// path. CallsFact records those parameters on the callee, so that it works
// across packages and into dependency modules; the standard library's are
// the callback rows of knowledge's tables (knowledge.StdCallbacks). A
// callee that only stores the function, or starts it with go, has no fact.

// CallsFact lists the parameters (by index) that a function calls
// synchronously.
type CallsFact struct{ Params []int }

func (*CallsFact) AFact()           {}
func (f *CallsFact) String() string { return "calls" + IntsString(f.Params) }
func (f *CallsFact) params() []int  { return f.Params }

// IntsString prints a fact's parameter list as "(0,2)".
func IntsString(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// Sync says which parameters of a function it calls synchronously: the
// package's own functions from Scan, others' from their CallsFact.
type Sync struct {
	pass  *analysis.Pass
	slots *Slots
	calls map[*types.Func][]int
}

// NewSync returns a Sync for pass; slots (may be nil) lets it see a
// parameter kept in a local or appended to a slice before it is called.
func NewSync(pass *analysis.Pass, slots *Slots) *Sync {
	return &Sync{pass: pass, slots: slots, calls: map[*types.Func][]int{}}
}

// Decl is a function declaration of the package with its func-typed
// parameters (FuncParams).
type Decl struct {
	Fd     *ast.FuncDecl
	Fn     *types.Func
	Params map[*types.Var]int
}

// Scan finds the synchronous parameters of the package's functions and
// exports them as facts. It is a fixpoint, since passing a parameter on to
// a local function's synchronous parameter counts.
func (s *Sync) Scan(decls []Decl) {
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if d.Params == nil {
				continue
			}
			got := s.Calls(d.Fd.Body, d.Params)
			if len(got) != len(s.calls[d.Fn]) {
				s.calls[d.Fn] = got
				changed = true
			}
		}
	}
	for _, d := range decls {
		if ps := s.calls[d.Fn]; d.Params != nil && len(ps) > 0 {
			s.pass.ExportObjectFact(d.Fn, &CallsFact{Params: ps})
		}
	}
}

// Params returns the parameters fn calls synchronously.
func (s *Sync) Params(fn *types.Func) []int {
	if fn == nil {
		return nil
	}
	if ps, ok := funcParams[int, CallsFact](s.pass, s.calls, fn); ok {
		return ps
	}
	if fn.Pkg() != nil && knowledge.StdPath(fn.Pkg().Path()) {
		return knowledge.StdCallbacks()[knowledge.Qualified(fn, fn.Pkg().Path())]
	}
	return nil
}

// Calls returns the indexes (per params) of the parameters that body
// calls synchronously: directly, in a literal called on the spot or passed
// to another synchronous parameter, or by passing them on to one.
func (s *Sync) Calls(body ast.Node, params map[*types.Var]int) []int {
	if body == nil || len(params) == 0 {
		return nil
	}
	info := s.pass.TypesInfo
	found := map[int]bool{}
	invoked := HandedAndRun(info, body)
	// paramOf finds the parameters a func value may be: the parameter, an
	// element of it, or a local it was appended to (handlers =
	// append(handlers, more...); handlers[i](e)).
	paramOf := func(e ast.Expr) (int, bool) {
		if s.slots != nil {
			if is := s.slots.Params(e, params); len(is) > 0 {
				for _, i := range is[1:] {
					found[i] = true
				}
				return is[0], true
			}
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return 0, false
		}
		v, _ := info.Uses[id].(*types.Var)
		i, ok := params[v]
		return i, ok
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n] || n == body
		case *ast.CallExpr:
			if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
				invoked[lit] = true
			}
			if i, ok := paramOf(n.Fun); ok {
				found[i] = true
			}
			for _, j := range s.Params(typeutil.StaticCallee(info, n)) {
				for _, a := range CalledArgs(info, n, j) {
					if i, ok := paramOf(a); ok {
						found[i] = true
					}
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						invoked[lit] = true
					}
				}
			}
		}
		return true
	})
	out := make([]int, 0, len(found))
	for i := range found {
		out = append(out, i)
	}
	sort.Ints(out)
	return out
}

// FuncParams maps a signature's func-typed parameters to their indexes.
func FuncParams(sig *types.Signature) map[*types.Var]int {
	var m map[*types.Var]int
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		t := p.Type()
		if sl, ok := t.(*types.Slice); ok && sig.Variadic() && i == sig.Params().Len()-1 {
			t = sl.Elem() // fns ...func(): the functions given one by one
		}
		if _, ok := t.Underlying().(*types.Signature); ok {
			if m == nil {
				m = map[*types.Var]int{}
			}
			m[p] = i
		}
	}
	return m
}

// CalledArgs returns the arguments of call given to parameter j: the one
// at j, or all from j on for a variadic parameter given one by one.
func CalledArgs(info *types.Info, call *ast.CallExpr, j int) []ast.Expr {
	if j >= len(call.Args) {
		return nil
	}
	var sig *types.Signature
	if t := info.TypeOf(call.Fun); t != nil {
		sig, _ = t.Underlying().(*types.Signature)
	}
	if sig != nil && sig.Variadic() && j == sig.Params().Len()-1 && !call.Ellipsis.IsValid() {
		return call.Args[j:]
	}
	return call.Args[j : j+1]
}
