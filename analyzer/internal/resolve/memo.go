package resolve

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/regions"
)

// Once-only callbacks: a function given to sync.(*Once).Do, or to a
// memoiser of the program's own (navidrome's singleton.GetInstance, which
// keeps one instance per type), runs once per process or key, not once
// per request.

// MemoFact marks a function that memoises what its func parameters
// (Params, by index) return: it calls one only on a miss and stores the
// result where it looks it up (memoParams).
type MemoFact struct{ Params []int }

func (*MemoFact) AFact()           {}
func (f *MemoFact) String() string { return "memo" + IntsString(f.Params) }
func (f *MemoFact) params() []int  { return f.Params }

// Memos are the package's memoisers, found by Scan and exported as facts,
// and other packages' by their facts.
type Memos struct {
	pass  *analysis.Pass
	funcs map[*types.Func][]int
}

// NewMemos returns the memoisers of pass's package, none found yet.
func NewMemos(pass *analysis.Pass) *Memos {
	return &Memos{pass: pass, funcs: map[*types.Func][]int{}}
}

// Scan finds the package's memoisers and exports their MemoFact.
func (m *Memos) Scan(decls []Decl) {
	for _, d := range decls {
		if ps := memoParams(m.pass.TypesInfo, m.pass.Fset, d.Fd, d.Params); len(ps) > 0 {
			m.funcs[d.Fn] = ps
			m.pass.ExportObjectFact(d.Fn, &MemoFact{Params: ps})
		}
	}
}

// Of returns the parameters fn, a function of this package, memoises.
func (m *Memos) Of(fn *types.Func) []int { return m.funcs[fn] }

// Once returns the parameters of the callee of call that run once per
// value or key rather than per call: sync.(*Once).Do's, and a
// memoiser's (this package's by Scan, another's by its MemoFact).
func (m *Memos) Once(call *ast.CallExpr) []int {
	fn := typeutil.StaticCallee(m.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	fn = fn.Origin()
	if knowledge.StdPath(fn.Pkg().Path()) {
		return knowledge.StdOnce()[knowledge.Qualified(fn, fn.Pkg().Path())]
	}
	ps, _ := funcParams[int, MemoFact](m.pass, m.funcs, fn)
	return ps
}

// memoParams returns the func parameters fd memoises, the shape of a
// hand-written singleton or cache loader: under a lock taken somewhere in
// the body, the result of calling the parameter (directly or through a
// local assigned from the call) is stored into a package-level variable
// or a field, or an element of a map kept in one, and the same storage is
// looked up in the body with a comma-ok index (v, ok := m[k]) or compared
// with nil: the miss check. A function that calls the parameter and
// stores its result with no lookup (an append to a log, a cache that is
// never read here) is no memoiser.
func memoParams(info *types.Info, fset *token.FileSet, fd *ast.FuncDecl, params map[*types.Var]int) []int {
	if fd.Body == nil || len(params) == 0 || len(regions.Locks(info, fset, fd.Body)) == 0 {
		return nil
	}
	paramCall := func(e ast.Expr) (int, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return 0, false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return 0, false
		}
		v, _ := info.Uses[id].(*types.Var)
		i, ok := params[v]
		return i, ok
	}
	results := map[*types.Var]int{} // locals assigned from a parameter's call
	stored := map[types.Object][]ast.Expr{}
	looked := map[types.Object]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				if ix, ok := ast.Unparen(n.Rhs[0]).(*ast.IndexExpr); ok {
					if o := storage(info, ix.X); o != nil {
						looked[o] = true // v, ok := m[k]
					}
				}
			}
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, lhs := range n.Lhs {
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
					if v, ok := info.ObjectOf(id).(*types.Var); ok {
						if p, ok := paramCall(n.Rhs[i]); ok {
							results[v] = p
						}
					}
				}
				target := ast.Unparen(lhs)
				if ix, ok := target.(*ast.IndexExpr); ok {
					target = ix.X
				}
				if o := storage(info, target); o != nil {
					stored[o] = append(stored[o], n.Rhs[i])
				}
			}
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				for _, side := range []ast.Expr{n.X, n.Y} {
					if o := storage(info, side); o != nil {
						looked[o] = true // if s.inst == nil
					}
				}
			}
		}
		return true
	})
	found := map[int]bool{}
	for o, rhs := range stored {
		if !looked[o] {
			continue
		}
		for _, e := range rhs {
			if p, ok := paramCall(e); ok {
				found[p] = true
			}
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					if p, ok := results[v]; ok {
						found[p] = true
					}
				}
			}
		}
	}
	var out []int
	for i := range fd.Type.Params.NumFields() + 1 {
		if found[i] {
			out = append(out, i)
		}
	}
	return out
}

// storage is the variable an expression reads or writes that outlives a
// call: a package-level variable or a field (of any value), else nil.
func storage(info *types.Info, e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return v
		}
	case *ast.SelectorExpr:
		if s := info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			return s.Obj()
		}
		if v, ok := info.Uses[e.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return v
		}
	}
	return nil
}
