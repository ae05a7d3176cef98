package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"

	"golang.org/x/tools/go/types/typeutil"
)

// lockRegion is a stretch of a body during which a sync.Mutex/RWMutex is
// held (SIO003).
type lockRegion struct {
	from, to token.Pos
	desc     string // "s.mu (locked at file.go:12)"
}

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
	r := recvOf(fn)
	if r == nil || !isNamed(r.Type(), true, "sync", "Mutex") && !isNamed(r.Type(), true, "sync", "RWMutex") {
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

const readLocked = "read-locked at "

// lockRegions finds where locks are held in body. A Lock ends at the
// first Unlock of the same receiver in the same statement list; a deferred
// Unlock, or none, holds it to the end of the function; an Unlock only in
// a nested block (an early-return branch) ends it at the first such
// Unlock, which under-reports rather than guesses. Func literals are
// their own functions.
func (r *runner) lockRegions(body *ast.BlockStmt) []lockRegion {
	info := r.pass.TypesInfo
	var regions []lockRegion
	var walkFunc func(fbody *ast.BlockStmt)
	walkFunc = func(fbody *ast.BlockStmt) {
		// Unlock calls of this function (not of nested literals), in order.
		type unlockAt struct {
			recv string
			pos  token.Pos
		}
		var unlocks []unlockAt
		var lists [][]ast.Stmt
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
			case *ast.BlockStmt:
				lists = append(lists, n.List)
			case *ast.CaseClause:
				lists = append(lists, n.Body)
			case *ast.CommClause:
				lists = append(lists, n.Body)
			}
			return true
		})
		for _, list := range lists {
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
				if !lock {
					continue
				}
				end := token.NoPos
			scan:
				for _, next := range list[i+1:] {
					switch next := next.(type) {
					case *ast.DeferStmt:
						if rv, _, un := lockOp(info, next.Call); un && rv == recv {
							end = fbody.End()
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
				p := r.pass.Fset.Position(call.Pos())
				how := "locked at "
				if read {
					how = readLocked
				}
				regions = append(regions, lockRegion{
					from: call.End(), to: end,
					desc: recv + " (" + how + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line) + ")",
				})
			}
		}
	}
	walkFunc(body)
	return regions
}

// heldAt returns the description of a lock held at pos, or "".
func heldAt(regions []lockRegion, pos token.Pos) string {
	for _, rg := range regions {
		if pos >= rg.from && pos < rg.to {
			return rg.desc
		}
	}
	return ""
}
