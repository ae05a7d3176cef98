package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Branches that end the process. A service's start-up helpers and error
// branches end in logger.Fatal or os.Exit, often after flushing a reporter
// with context.Background(); reached from a handler, the request is not
// served whatever they block on, so none of it is a request-path finding.
//
// The definition is deliberately simple, so that it never hides a path
// that returns to the request: a block ends the process when its last
// statement is a call that does (an exit row of knowledge's tables, a
// function of this package found so, another package's function with a
// paths.ExitsFact) and nothing in the block returns or jumps out of it
// before that call. A function ends the process when its body is such a
// block. A function that exits on some branches only, or whose exit sits
// in an if at its end, does not.
//
// panic is not an exit: net/http, gin and the other routers recover a
// handler's panic and serve the next request, so what ran before it did
// block the request (and the blocking happened before the panic anyway).
// runtime.Goexit ends a goroutine only; neither is a row.

// findExits is the pre-pass that finds the package's functions that end
// the process, and exports their paths.ExitsFact for the packages above.
// A function ending in a call of another such function of the package is
// one too, so it runs to a fixpoint.
func (r *scanned) findExits(files []*ast.File) {
	r.exits = map[*types.Func]string{}
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
			if _, done := r.exits[d.fn]; done {
				continue
			}
			if by, ok := r.blockExits(d.body.List); ok {
				r.exits[d.fn] = by
				changed = true
			}
		}
	}
	for _, d := range decls {
		if by, ok := r.exits[d.fn]; ok && !entryPoint(d.fn) {
			r.pass.ExportObjectFact(d.fn, &paths.ExitsFact{By: by})
		}
	}
}

// endsProcess returns the key of call's callee when the call ends the
// process.
func (r *scanned) endsProcess(call *ast.CallExpr) (string, bool) {
	fn := typeutil.StaticCallee(r.pass.TypesInfo, call)
	if fn == nil || fn.Pkg() == nil {
		return "", false
	}
	fn = fn.Origin()
	key := knowledge.Qualified(fn, fn.Pkg().Path())
	switch {
	case r.cfg.Exits[key]:
		return key, true
	case fn.Pkg() == r.pass.Pkg:
		_, ok := r.exits[fn]
		return key, ok
	}
	var f paths.ExitsFact
	return key, r.pass.ImportObjectFact(fn, &f)
}

// blockExits reports whether a block of statements ends the process, and
// by which call.
func (r *scanned) blockExits(stmts []ast.Stmt) (string, bool) {
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

// exitSpans returns the stretches of body, func literals included, that
// can only end the process: blocks and case clauses that end so.
func (r *scanned) exitSpans(body *ast.BlockStmt) [][2]token.Pos {
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

// dropExiting removes the items inside a stretch that ends the process:
// what they block on, the exiting call's own path included, is not a
// request's.
func dropExiting(items []paths.Item, spans [][2]token.Pos) []paths.Item {
	if len(spans) == 0 {
		return items
	}
	kept := items[:0]
	for _, it := range items {
		in := false
		for _, s := range spans {
			if s[0] <= it.Pos && it.Pos < s[1] {
				in = true
				break
			}
		}
		if !in {
			kept = append(kept, it)
		}
	}
	return kept
}
