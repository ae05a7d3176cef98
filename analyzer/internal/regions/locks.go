package regions

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// lockRegion is a stretch of a body during which a sync.Mutex/RWMutex is
// held (SIO003).
type Lock struct {
	from, to token.Pos
	desc     string // "s.mu (locked at file.go:12)"
	// gaps are stretches inside the region where a branch has released
	// the lock: from an Unlock in a nested block to the end of that block
	// (or to a Lock again in it). Such a branch usually returns, so what
	// follows the block still runs under the lock, but nothing after the
	// Unlock inside the branch does (singleflight's Do: Unlock, then
	// wg.Wait, then return).
	gaps []span
	// root is the variable the locked mutex is reached from through
	// field selections only (s in s.cache.mu), nil when it is reached
	// otherwise (an index, a call, a package-level selector).
	root types.Object
}

type span struct{ from, to token.Pos }

// lockOp classifies a call as a Lock/RLock or Unlock/RUnlock of a
// sync.Mutex/RWMutex (embedded ones included, through promotion) and
// returns the receiver expression as written.
func lockOp(info *types.Info, call *ast.CallExpr) (recv string, lock, unlock bool) {
	recv, lock, unlock, _ = lockOpKind(info, call)
	return recv, lock, unlock
}

// lockOpKind is lockOp that also says whether a lock is a read lock.
func lockOpKind(info *types.Info, call *ast.CallExpr) (recv string, lock, unlock, read bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false, false, false
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "sync" {
		return "", false, false, false
	}
	r := named.Recv(fn)
	if r == nil || !named.Is(r.Type(), true, "sync", "Mutex") && !named.Is(r.Type(), true, "sync", "RWMutex") {
		return "", false, false, false
	}
	recv = types.ExprString(sel.X)
	switch fn.Name() {
	case "Lock":
		return recv, true, false, false
	case "RLock":
		return recv, true, false, true
	case "Unlock", "RUnlock":
		return recv, false, true, false
	}
	return "", false, false, false
}

// ReadLocked marks a read lock in a Lock description.
const ReadLocked = "read-locked at "

// Locks finds where locks are held in body. A Lock ends at the
// first Unlock of the same receiver in the same statement list; a deferred
// Unlock, or none, holds it to the end of the function (to the end of its
// block when that block ends with a return); an Unlock only in
// a nested block (an early-return branch) ends it at the first such
// Unlock, which under-reports rather than guesses. Within a region, the
// rest of a nested block after its own Unlock is a gap (see
// lockRegion.gaps). Func literals are their own functions.
func Locks(info *types.Info, fset *token.FileSet, body *ast.BlockStmt) []Lock {
	var regions []Lock
	var walkFunc func(fbody *ast.BlockStmt)
	walkFunc = func(fbody *ast.BlockStmt) {
		// Unlock calls of this function (not of nested literals), in order.
		type unlockAt struct {
			recv string
			pos  token.Pos
		}
		var unlocks []unlockAt
		var lists []stmtList
		// released are the gaps after Unlock statements, per receiver.
		released := map[string][]span{}
		ast.Inspect(fbody, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				walkFunc(n.Body)
				return false
			case *ast.DeferStmt:
				return false // a deferred Unlock does not end the region early
			case *ast.CallExpr:
				if recv, _, un := lockOp(info, n); un {
					unlocks = append(unlocks, unlockAt{recv, n.Pos()})
				}
			default:
				if l, ok := stmtListOf(n); ok {
					lists = append(lists, l)
				}
			}
			return true
		})
		stmtCall := func(st ast.Stmt) *ast.CallExpr {
			if es, ok := st.(*ast.ExprStmt); ok {
				c, _ := ast.Unparen(es.X).(*ast.CallExpr)
				return c
			}
			return nil
		}
		for _, l := range lists {
			for i, st := range l.stmts {
				c := stmtCall(st)
				if c == nil {
					continue
				}
				recv, _, un := lockOp(info, c)
				if !un {
					continue
				}
				gap := span{c.End(), l.end}
				for _, next := range l.stmts[i+1:] {
					if nc := stmtCall(next); nc != nil {
						if rv, lock, _ := lockOp(info, nc); lock && rv == recv {
							gap.to = nc.Pos()
							break
						}
					}
				}
				released[recv] = append(released[recv], gap)
			}
		}
		for _, l := range lists {
			list := l.stmts
			for i, st := range list {
				es, ok := st.(*ast.ExprStmt)
				if !ok {
					continue
				}
				call, ok := ast.Unparen(es.X).(*ast.CallExpr)
				if !ok {
					continue
				}
				recv, lock, _, read := lockOpKind(info, call)
				if !lock || copiedLock(info, call, fbody) {
					continue
				}
				end := token.NoPos
			scan:
				for _, next := range list[i+1:] {
					switch next := next.(type) {
					case *ast.DeferStmt:
						if rv, _, un := lockOp(info, next.Call); un && rv == recv {
							end = fbody.End()
							// A nested block that returns at its end leaves
							// the function there: the deferred Unlock runs
							// before anything after the block.
							if _, ok := list[len(list)-1].(*ast.ReturnStmt); ok {
								end = l.end
							}
							break scan
						}
					case *ast.ExprStmt:
						if c, ok := ast.Unparen(next.X).(*ast.CallExpr); ok {
							if rv, _, un := lockOp(info, c); un && rv == recv {
								end = c.Pos()
								break scan
							}
						}
					}
				}
				if end == token.NoPos {
					end = fbody.End()
					for _, u := range unlocks {
						if u.recv == recv && u.pos > call.Pos() {
							end = u.pos
							break
						}
					}
				}
				p := fset.Position(call.Pos())
				how := "locked at "
				if read {
					how = ReadLocked
				}
				rg := Lock{
					from: call.End(), to: end, root: lockRoot(info, call),
					desc: recv + " (" + how + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line) + ")",
				}
				for _, g := range released[recv] {
					if g.from > rg.from && g.from < rg.to {
						rg.gaps = append(rg.gaps, g)
					}
				}
				regions = append(regions, rg)
			}
		}
	}
	walkFunc(body)
	return regions
}

// LockHeldAt returns the description of a lock held at pos, or "".
func LockHeldAt(regions []Lock, pos token.Pos) string {
	desc, _ := LockHeld(regions, pos)
	return desc
}

// LockHeld is LockHeldAt that also returns the variable the held mutex
// is reached from through field selections only (nil if none), so that
// a caller can tell a lock on its function's receiver from a shared one.
func LockHeld(regions []Lock, pos token.Pos) (desc string, root types.Object) {
	for _, rg := range regions {
		if pos >= rg.from && pos < rg.to && !inGap(rg.gaps, pos) {
			return rg.desc, rg.root
		}
	}
	return "", nil
}

// lockRoot returns the variable a Lock call's mutex is reached from
// through field selections only, or nil.
func lockRoot(info *types.Info, call *ast.CallExpr) types.Object {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	e := sel.X
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			if s := info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
				return nil
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if !ok || v.IsField() {
				return nil
			}
			return v
		default:
			return nil
		}
	}
}

func inGap(gaps []span, pos token.Pos) bool {
	for _, g := range gaps {
		if pos >= g.from && pos < g.to {
			return true
		}
	}
	return false
}

// stmtList is a block's or a clause's statements, where regions begin and
// end (lock and transaction regions alike).
type stmtList struct {
	stmts []ast.Stmt
	end   token.Pos // where the block or clause ends
}

// stmtListOf returns the statement list that n holds, if it holds one.
func stmtListOf(n ast.Node) (stmtList, bool) {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return stmtList{n.List, n.Rbrace}, true
	case *ast.CaseClause:
		return stmtList{n.Body, n.End()}, true
	case *ast.CommClause:
		return stmtList{n.Body, n.End()}, true
	}
	return stmtList{}, false
}

// copiedLock reports whether the mutex a Lock call locks is the function's
// own copy: reached by value fields only from a value receiver or
// parameter, as in func (s store) Get() { s.mu.Lock(); … }. Each call
// locks a fresh copy, so the lock excludes no one and nobody waits on it
// (go vet's copylocks reports the copy itself).
func copiedLock(info *types.Info, call *ast.CallExpr, fbody *ast.BlockStmt) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if s := info.Selections[sel]; s == nil || s.Indirect() {
		return false // through a pointer (or not a method value at all)
	}
	e := sel.X
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			s := info.Selections[x]
			if s == nil || s.Kind() != types.FieldVal || s.Indirect() {
				return false
			}
			e = x.X
		case *ast.Ident:
			v, ok := info.Uses[x].(*types.Var)
			if !ok || v.IsField() || v.Pkg() == nil {
				return false
			}
			if _, ptr := v.Type().Underlying().(*types.Pointer); ptr {
				return false
			}
			// A receiver or parameter of this very function: declared in
			// its scope before the body. A captured local of an enclosing
			// function is shared, not copied.
			fs := v.Pkg().Scope().Innermost(fbody.Lbrace)
			return fs != nil && v.Parent() == fs && v.Pos() < fbody.Lbrace
		default:
			return false
		}
	}
}
