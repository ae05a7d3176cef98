package regions

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
)

// Transaction regions (SIO007): like a Lock (locks.go), the stretch
// of a body during which a database transaction, or a connection taken out
// of the pool, is open. A remote call made there holds the pooled
// connection for its whole round trip.

// Tx is a stretch of a body during which a transaction is open.
type Tx struct {
	from, to token.Pos
	obj      types.Object // the variable holding the transaction
	desc     string       // "tx (begun at file.go:12)"
	gaps     []span       // a branch that committed or rolled back (see Lock.gaps)
}

// txBegin reports whether fn opens a transaction or takes a connection out
// of a pool: database/sql's Begin, BeginTx and Conn, sqlx's Beginx,
// BeginTxx and MustBegin, gorm's Begin, pgx's Begin and BeginTx.
func txBegin(fn *types.Func) bool {
	recv := named.Recv(fn)
	if recv == nil || fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	switch path := fn.Pkg().Path(); {
	case path == "database/sql":
		return (named.Is(recv.Type(), true, path, "DB") && (name == "Begin" || name == "BeginTx" || name == "Conn")) ||
			(named.Is(recv.Type(), true, path, "Conn") && name == "BeginTx")
	case path == "github.com/jmoiron/sqlx":
		return name == "Beginx" || name == "BeginTxx" || name == "MustBegin" || name == "MustBeginTx"
	case path == knowledge.PathGorm || path == knowledge.PathGormV1:
		return knowledge.GormReceiver(fn) != "" && name == "Begin"
	case strings.HasPrefix(path, "github.com/jackc/pgx/"):
		return (named.Is(recv.Type(), true, path, "Pool") || named.Is(recv.Type(), true, path, "Conn")) &&
			(name == "Begin" || name == "BeginTx")
	}
	return false
}

// txEnd reports whether call ends the transaction held in obj: a Commit or
// Rollback on it (Close for a *sql.Conn).
func txEnd(info *types.Info, call *ast.CallExpr, obj types.Object) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Commit", "Rollback", "Close":
	default:
		return false
	}
	return txRooted(info, sel.X, obj)
}

// txRooted reports whether e is obj, or a method chain or selector on it
// (tx.Where(…).Model(…)).
func txRooted(info *types.Info, e ast.Expr, obj types.Object) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.ObjectOf(x) == obj
		case *ast.SelectorExpr:
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		default:
			return false
		}
	}
}

// Txs finds where transactions are open in body. A Begin assigned to
// a variable opens one; it ends at the first Commit or Rollback on that
// variable in the same statement list (in an if's init or condition, a
// return, or a statement of its own), else at the first one further down,
// else at the end of the function: a deferred Rollback holds it to the end,
// like a deferred Unlock. Inside, the rest of a nested block after a
// Commit or Rollback is a gap. The literal given to gorm's Transaction is
// a region as a whole, its parameter the transaction.
func Txs(info *types.Info, fset *token.FileSet, body *ast.BlockStmt) []Tx {
	var regions []Tx
	desc := func(name, how string, pos token.Pos) string {
		p := fset.Position(pos)
		return name + " (" + how + " " + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line) + ")"
	}
	var walkFunc func(fbody *ast.BlockStmt)
	walkFunc = func(fbody *ast.BlockStmt) {
		var lists []stmtList
		var ends []*ast.CallExpr // non-deferred Commit/Rollback candidates, in order
		ast.Inspect(fbody, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				walkFunc(n.Body)
				return false
			case *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				ends = append(ends, n)
				if fn := typeutil.StaticCallee(info, n); fn != nil && knowledge.GormReceiver(fn) != "" && fn.Name() == "Transaction" && len(n.Args) > 0 {
					if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok && lit.Type.Params.NumFields() > 0 {
						if ps := lit.Type.Params.List[0].Names; len(ps) > 0 {
							if obj := info.Defs[ps[0]]; obj != nil {
								regions = append(regions, Tx{
									from: lit.Body.Lbrace, to: lit.Body.Rbrace, obj: obj,
									desc: desc(ps[0].Name, "gorm Transaction at", n.Pos()),
								})
							}
						}
					}
				}
			default:
				if l, ok := stmtListOf(n); ok {
					lists = append(lists, l)
				}
			}
			return true
		})
		// topEnd returns a Commit/Rollback on obj in st itself, not in a
		// nested block.
		topEnd := func(st ast.Stmt, obj types.Object) *ast.CallExpr {
			var exprs []ast.Expr
			switch st := st.(type) {
			case *ast.ExprStmt:
				exprs = []ast.Expr{st.X}
			case *ast.AssignStmt:
				exprs = st.Rhs
			case *ast.ReturnStmt:
				exprs = st.Results
			case *ast.IfStmt:
				if as, ok := st.Init.(*ast.AssignStmt); ok {
					exprs = append(exprs, as.Rhs...)
				}
				if es, ok := st.Init.(*ast.ExprStmt); ok {
					exprs = append(exprs, es.X)
				}
				exprs = append(exprs, st.Cond)
			}
			for _, e := range exprs {
				var found *ast.CallExpr
				ast.Inspect(e, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok {
						return false
					}
					if c, ok := n.(*ast.CallExpr); ok && found == nil && txEnd(info, c, obj) {
						found = c
					}
					return found == nil
				})
				if found != nil {
					return found
				}
			}
			return nil
		}
		for _, l := range lists {
			for i, st := range l.stmts {
				as, ok := st.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 {
					continue
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok {
					continue
				}
				fn := typeutil.StaticCallee(info, call)
				if fn == nil || !txBegin(fn) {
					continue
				}
				id, ok := as.Lhs[0].(*ast.Ident)
				if !ok || id.Name == "_" {
					continue
				}
				obj := info.ObjectOf(id)
				if obj == nil {
					continue
				}
				end := token.NoPos
				for _, next := range l.stmts[i+1:] {
					if c := topEnd(next, obj); c != nil {
						end = c.Pos()
						break
					}
				}
				if end == token.NoPos {
					end = fbody.End()
					for _, c := range ends {
						if c.Pos() > call.End() && txEnd(info, c, obj) {
							end = c.Pos()
							break
						}
					}
				}
				how := "begun at"
				if fn.Name() == "Conn" {
					how = "taken from the pool at"
				}
				rg := Tx{from: call.End(), to: end, obj: obj, desc: desc(id.Name, how, call.Pos())}
				for _, ol := range lists {
					for _, s := range ol.stmts {
						if es, ok := s.(*ast.ExprStmt); ok {
							if c, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && txEnd(info, c, obj) &&
								c.End() > rg.from && c.End() < rg.to {
								rg.gaps = append(rg.gaps, span{c.End(), ol.end})
							}
						}
					}
				}
				regions = append(regions, rg)
			}
		}
	}
	walkFunc(body)
	return regions
}

// OpenTxAt returns the description of a transaction open at pos, or ""
// when none is or when the call at pos (nil for none) is the
// transaction's own work: a call on the transaction, or one that is given
// it.
func OpenTxAt(info *types.Info, regions []Tx, pos token.Pos, call *ast.CallExpr) string {
	for _, rg := range regions {
		if pos < rg.from || pos >= rg.to || inGap(rg.gaps, pos) {
			continue
		}
		if call != nil && usesTx(info, call, rg.obj) {
			continue
		}
		return rg.desc
	}
	return ""
}

// usesTx reports whether call is made on the transaction or given it.
func usesTx(info *types.Info, call *ast.CallExpr, obj types.Object) bool {
	if txRooted(info, call.Fun, obj) {
		return true
	}
	for _, a := range call.Args {
		if txRooted(info, a, obj) {
			return true
		}
	}
	return false
}
