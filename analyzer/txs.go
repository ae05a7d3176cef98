package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Transaction regions (SIO007): like a lock region (locks.go), the stretch
// of a body during which a database transaction, or a connection taken out
// of the pool, is open. A remote call made there holds the pooled
// connection for its whole round trip.

// txRegion is a stretch of a body during which a transaction is open.
type txRegion struct {
	from, to token.Pos
	obj      types.Object // the variable holding the transaction
	desc     string       // "tx (begun at file.go:12)"
	gaps     []span       // a branch that committed or rolled back (see lockRegion.gaps)
}

// txBegin reports whether fn opens a transaction or takes a connection out
// of a pool: database/sql's Begin, BeginTx and Conn, sqlx's Beginx,
// BeginTxx and MustBegin, gorm's Begin, pgx's Begin and BeginTx.
func txBegin(fn *types.Func) bool {
	recv := recvOf(fn)
	if recv == nil || fn.Pkg() == nil {
		return false
	}
	name := fn.Name()
	switch path := fn.Pkg().Path(); {
	case path == "database/sql":
		return (isNamed(recv.Type(), true, path, "DB") && (name == "Begin" || name == "BeginTx" || name == "Conn")) ||
			(isNamed(recv.Type(), true, path, "Conn") && name == "BeginTx")
	case path == "github.com/jmoiron/sqlx":
		return name == "Beginx" || name == "BeginTxx" || name == "MustBegin" || name == "MustBeginTx"
	case path == pathGorm || path == pathGormV1:
		return gormReceiver(fn) != "" && name == "Begin"
	case strings.HasPrefix(path, "github.com/jackc/pgx/"):
		return (isNamed(recv.Type(), true, path, "Pool") || isNamed(recv.Type(), true, path, "Conn")) &&
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

// txRegions finds where transactions are open in body. A Begin assigned to
// a variable opens one; it ends at the first Commit or Rollback on that
// variable in the same statement list (in an if's init or condition, a
// return, or a statement of its own), else at the first one further down,
// else at the end of the function: a deferred Rollback holds it to the end,
// like a deferred Unlock. Inside, the rest of a nested block after a
// Commit or Rollback is a gap. The literal given to gorm's Transaction is
// a region as a whole, its parameter the transaction.
func (r *runner) txRegions(body *ast.BlockStmt) []txRegion {
	info := r.pass.TypesInfo
	var regions []txRegion
	desc := func(name, how string, pos token.Pos) string {
		p := r.pass.Fset.Position(pos)
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
				if fn := typeutil.StaticCallee(info, n); fn != nil && gormReceiver(fn) != "" && fn.Name() == "Transaction" && len(n.Args) > 0 {
					if lit, ok := ast.Unparen(n.Args[0]).(*ast.FuncLit); ok && lit.Type.Params.NumFields() > 0 {
						if ps := lit.Type.Params.List[0].Names; len(ps) > 0 {
							if obj := info.Defs[ps[0]]; obj != nil {
								regions = append(regions, txRegion{
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
				rg := txRegion{from: call.End(), to: end, obj: obj, desc: desc(id.Name, how, call.Pos())}
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

// openTxAt returns the description of a transaction open at the item, or
// "" when none is or when the item is the transaction's own work: a call
// on the transaction, or one that is given it.
func openTxAt(info *types.Info, regions []txRegion, it item) string {
	for _, rg := range regions {
		if it.pos < rg.from || it.pos >= rg.to || inGap(rg.gaps, it.pos) {
			continue
		}
		if it.call != nil && usesTx(info, it.call, rg.obj) {
			continue
		}
		return rg.desc
	}
	return ""
}

// grpcUnderTx makes the calls through a generated gRPC client interface
// (a method whose first parameter is a context.Context, declared in a
// package that imports google.golang.org/grpc) made while a transaction is
// open remote I/O: interface dispatch does not carry the transaction, and
// the generated client's concrete type is rarely bound where the analysis
// can see it.
func (r *runner) grpcUnderTx(body *ast.BlockStmt, regions []txRegion, items []item, invoked map[*ast.FuncLit]bool) []item {
	info := r.pass.TypesInfo
	at := map[*ast.CallExpr]int{}
	for i, it := range items {
		if it.call != nil {
			at[it.call] = i
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			return false
		case *ast.FuncLit:
			return invoked[n] // as collect: only literals run on the spot
		case *ast.CallExpr:
			im := interfaceMethod(info, n)
			if im == nil || !importsGRPC(im.Pkg()) {
				return true
			}
			sig, _ := im.Type().(*types.Signature)
			if sig == nil || sig.Params().Len() == 0 || !isContextType(sig.Params().At(0).Type()) {
				return true
			}
			i, ok := at[n]
			if ok && items[i].term != nil {
				return true
			}
			it := item{pos: n.Pos(), end: n.End(), call: n}
			if ok {
				it = items[i]
			}
			it.tx = openTxAt(info, regions, it)
			if it.tx == "" {
				return true
			}
			it.term = &finding{chain: []string{displayName(im)}, sites: []string{r.site(n.Pos())}, poses: []token.Pos{n.Pos()}}
			if ok {
				items[i] = it
			} else {
				items = append(items, it)
			}
		}
		return true
	})
	return items
}

// importsGRPC reports whether pkg imports google.golang.org/grpc: generated
// client code does.
func importsGRPC(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "google.golang.org/grpc" {
			return true
		}
	}
	return false
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

// dbPackages are the package names and import paths (as chains name
// them: SIO001 table keys by path, other callees by package name) whose calls are
// database work, not a remote call: the transaction's own queries, or
// another query on the same pool.
var dbPackages = []string{
	"database/sql.", "gorm.", "sqlx.", "pgx.", "pgxpool.", "pgconn.",
	"gorm.io/", "github.com/jinzhu/gorm.", "github.com/jmoiron/sqlx.", "github.com/jackc/",
}

// remote reports whether a path ends at a remote call or a wait: anything
// that blocks (lockable) but is no database call.
func (f *finding) remote() bool {
	if !lockable[f.rule] || len(f.chain) == 0 {
		return false
	}
	last := f.chain[len(f.chain)-1]
	for _, p := range dbPackages {
		if strings.HasPrefix(last, p) {
			return false
		}
	}
	return true
}

// txHint is SIO007's fix.
const txHint = "the transaction holds a pooled database connection (and its row locks) for the whole remote call, " +
	"so under load the pool drains and every request waits for a connection; make the call before Begin or after Commit, " +
	"or write an outbox row in the transaction and let a worker make the call"
