package exits

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Finder tells the calls, blocks and stretches that end the process, in
// one package.
type Finder struct {
	pass *analysis.Pass
	// table are the exit rows of knowledge's tables, by key.
	table map[string]bool
	// own are the package's functions that end the process, with the
	// call each ends in.
	own map[*types.Func]string
}

// Find is the pre-pass that finds the package's functions that end
// the process, and exports their paths.ExitsFact for the packages above.
// A function ending in a call of another such function of the package is
// one too, so it runs to a fixpoint.
func Find(pass *analysis.Pass, table map[string]bool, files []*ast.File) *Finder {
	r := &Finder{pass: pass, table: table, own: map[*types.Func]string{}}
	type decl struct {
		fn   *types.Func
		body *ast.BlockStmt
	}
	var decls []decl
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, _ := r.pass.TypesInfo.Defs[fd.Name].(*types.Func); fn != nil {
					decls = append(decls, decl{fn, fd.Body})
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if _, done := r.own[d.fn]; done {
				continue
			}
			if by, ok := r.blockExits(d.body.List); ok {
				r.own[d.fn] = by
				changed = true
			}
		}
	}
	for _, d := range decls {
		if by, ok := r.own[d.fn]; ok && !named.EntryPoint(d.fn) {
			r.pass.ExportObjectFact(d.fn, &paths.ExitsFact{By: by})
		}
	}
	return r
}

// endsProcess returns the key of call's callee when the call ends the
// process.
func (r *Finder) endsProcess(call *ast.CallExpr) (string, bool) {
	fn := typeutil.StaticCallee(r.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return "", false
	}
	fn = fn.Origin()
	key := knowledge.Qualified(fn, fn.Pkg().Path())
	switch {
	case r.table[key]:
		return key, true
	case fn.Pkg() == r.pass.Pkg:
		_, ok := r.own[fn]
		return key, ok
	}
	var f paths.ExitsFact
	return key, r.pass.ImportObjectFact(fn, &f)
}

// blockExits reports whether a block of statements ends the process, and
// by which call.
func (r *Finder) blockExits(stmts []ast.Stmt) (string, bool) {
	if len(stmts) == 0 {
		return "", false
	}
	es, ok := stmts[len(stmts)-1].(*ast.ExprStmt)
	if !ok {
		return "", false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	by, ok := r.endsProcess(call)
	if !ok || jumpsOut(stmts) {
		return "", false
	}
	return by, true
}

// jumpsOut reports whether a return, goto, labelled branch, or a break or
// continue that no loop, switch or select inside stmts takes, may leave
// the statements before their end. Labelled branches and gotos are taken
// to leave: rare in such blocks, and erring that way keeps a finding.
func jumpsOut(stmts []ast.Stmt) bool {
	out := false
	var walk func(n ast.Node, loop, brk bool)
	walk = func(n ast.Node, loop, brk bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			if out {
				return false
			}
			switch m := m.(type) {
			case *ast.FuncLit:
				return false // its return leaves the literal only
			case *ast.ReturnStmt:
				out = true
			case *ast.BranchStmt:
				switch {
				case m.Label != nil || m.Tok == token.GOTO:
					out = true
				case m.Tok == token.BREAK && !brk, m.Tok == token.CONTINUE && !loop:
					out = true
				}
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, true, true)
					return false
				}
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, loop, true)
					return false
				}
			}
			return true
		})
	}
	for _, s := range stmts {
		walk(s, false, false)
	}
	return out
}

// Spans returns the stretches of body, func literals included, that
// can only end the process: blocks and case clauses that end so.
func (r *Finder) Spans(body *ast.BlockStmt) [][2]token.Pos {
	var spans [][2]token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		// A clause's span starts at its body: its case expressions are
		// evaluated whichever clause runs.
		var stmts []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			stmts = n.List
		case *ast.CaseClause:
			stmts = n.Body
		case *ast.CommClause:
			stmts = n.Body
		default:
			return true
		}
		if _, ok := r.blockExits(stmts); ok {
			from := stmts[0].Pos()
			if b, ok := n.(*ast.BlockStmt); ok {
				from = b.Pos()
			}
			spans = append(spans, [2]token.Pos{from, n.End()})
			return false // what is inside is in the span already
		}
		return true
	})
	return spans
}
