package resolve

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// First-use construction: a getter that builds what it returns on its
// first call and keeps it,
//
//	if d.db != nil { return d.db }          // or: if d.db == nil {
//	d.db = open(…)                           //         d.db = open(…)
//	return d.db                              //     }
//
// (with or without a lock around it), runs the construction once per
// process, usually at start-up, when main wires the service; every later
// call, the requests', returns the kept value. The I/O of the
// construction (sql.Open, the migrations behind it, a client's dial) is
// no request path's. FirstUse finds the stretches of a body that run only
// on a first call: after such a guard, or inside such an if.
//
// The storage must outlive the call: a field reached from the receiver
// or a package-level variable, or a package-level variable itself. A value built in the same body (c := &Client{}; if c.db == nil)
// is built on every call, and its guard does not count. A getter whose
// receiver is itself built per request is not told apart: that is the
// program's lifetime, which syncio follows only this far: a type the
// package builds inside a function of a request handler's shape (gin-contrib
// sessions' per-request session, whose Session() loads from the store on
// first use) is a request's, and its getters run once per request
// (PerRequestTypes).

// FirstUse returns the stretches of body, [start, end), that run only on
// a first call: the statements after an early return taken when the
// storage is set (if X != nil { return … }) up to the end of the body,
// and the body of an if taken when it is unset (if X == nil { … }), each
// only where the stretch assigns X.
func FirstUse(info *types.Info, sig *types.Signature, body *ast.BlockStmt, perRequest map[*types.TypeName]bool) [][2]token.Pos {
	if body == nil {
		return nil
	}
	var spans [][2]token.Pos
	for i, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil {
			continue
		}
		x, op, ok := nilCheck(ifs.Cond)
		if !ok || !kept(info, sig, x, perRequest) {
			continue
		}
		switch {
		case op == token.NEQ && ifs.Else == nil && returnsOnly(ifs.Body):
			rest := body.List[i+1:]
			if len(rest) > 0 && assigns(info, rest, x) {
				spans = append(spans, [2]token.Pos{rest[0].Pos(), body.End()})
			}
			return spans // nothing after the guard runs on a later call
		case op == token.EQL && assigns(info, ifs.Body.List, x):
			spans = append(spans, [2]token.Pos{ifs.Body.Lbrace, ifs.Body.End()})
		}
	}
	return spans
}

// Kept reports whether x, read in body, is storage that outlives a call
// of body's function (see FirstUse): a sync.Once declared inside the body
// is a new one on every call, and what its Do runs, runs every time.
func Kept(info *types.Info, sig *types.Signature, x ast.Expr, perRequest map[*types.TypeName]bool) bool {
	return kept(info, sig, ast.Unparen(x), perRequest)
}

// nilCheck returns X and the operator of a condition X != nil or X == nil
// (either side).
func nilCheck(cond ast.Expr) (ast.Expr, token.Token, bool) {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || (be.Op != token.NEQ && be.Op != token.EQL) {
		return nil, 0, false
	}
	switch {
	case isNil(be.Y):
		return ast.Unparen(be.X), be.Op, true
	case isNil(be.X):
		return ast.Unparen(be.Y), be.Op, true
	}
	return nil, 0, false
}

func isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// returnsOnly reports whether a block is a single return statement.
func returnsOnly(b *ast.BlockStmt) bool {
	if len(b.List) != 1 {
		return false
	}
	_, ok := b.List[0].(*ast.ReturnStmt)
	return ok
}

// kept reports whether x is storage that outlives the call: a
// package-level variable, or a field selected (through further fields)
// from a package-level variable or sig's receiver. A parameter is the
// caller's value, often the request itself (bazel-remote's SpliceBlob
// fills req.BlobDigest when the client left it out, on every such
// request), and a parameter or named result itself is the call's own:
// assigning it keeps nothing (if err != nil { return } … err = … is no
// memo).
func kept(info *types.Info, sig *types.Signature, x ast.Expr, perRequest map[*types.TypeName]bool) bool {
	field := false
	for {
		switch e := x.(type) {
		case *ast.Ident:
			v, ok := info.Uses[e].(*types.Var)
			if !ok || v.Pkg() == nil {
				return false
			}
			if v.Parent() == v.Pkg().Scope() {
				return true // package-level
			}
			return field && sig != nil && sig.Recv() == v && !perRequest[typeName(v.Type())]
		case *ast.SelectorExpr:
			sel := info.Selections[e]
			if sel == nil {
				// A qualified identifier (pkg.Var) is a package-level
				// variable of another package.
				v, ok := info.Uses[e.Sel].(*types.Var)
				return ok && !v.IsField()
			}
			if sel.Kind() != types.FieldVal {
				return false
			}
			field = true
			x = ast.Unparen(e.X)
		case *ast.StarExpr:
			x = ast.Unparen(e.X)
		default:
			return false
		}
	}
}

// typeName is the name of t or of what it points to; nil for others.
func typeName(t types.Type) *types.TypeName {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// PerRequestTypes returns the named types that files build (a composite
// literal, new(T)) inside a function of a request handler's shape,
// literals included: a value of one is a request's.
func PerRequestTypes(pkg *types.Package, info *types.Info, files []*ast.File) map[*types.TypeName]bool {
	out := map[*types.TypeName]bool{}
	if !spellsHandlers(pkg) {
		return out // the walk below is for the few packages that can
	}
	collect := func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			var t types.Type
			switch n := n.(type) {
			case *ast.CompositeLit:
				t = info.TypeOf(n)
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 1 {
					if _, isNew := info.Uses[id].(*types.Builtin); isNew && id.Name == "new" {
						t = info.TypeOf(n.Args[0])
					}
				}
			}
			if tn := typeName(t); tn != nil {
				out[tn] = true
			}
			return true
		})
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if fn, ok := info.Defs[n.Name].(*types.Func); ok && n.Body != nil && SignatureRoot(fn.Type().(*types.Signature)) != NotRoot {
					collect(n.Body)
					return false
				}
			case *ast.FuncLit:
				if sig, ok := info.TypeOf(n).(*types.Signature); ok && SignatureRoot(sig) != NotRoot {
					collect(n.Body)
					return false
				}
			}
			return true
		})
	}
	return out
}

// assigns reports whether stmts assign x (the same storage, written the
// same way) anywhere inside them.
func assigns(info *types.Info, stmts []ast.Stmt, x ast.Expr) bool {
	want := types.ExprString(x)
	root := rootObj(info, x)
	found := false
	for _, st := range stmts {
		ast.Inspect(st, func(n ast.Node) bool {
			if found {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false // a closure may never run
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok == token.DEFINE {
				return true
			}
			for _, lhs := range as.Lhs {
				lhs = ast.Unparen(lhs)
				if types.ExprString(lhs) == want && rootObj(info, lhs) == root {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// rootObj is the object of the identifier at the root of a selector chain.
func rootObj(info *types.Info, x ast.Expr) types.Object {
	for {
		switch e := x.(type) {
		case *ast.Ident:
			return info.Uses[e]
		case *ast.SelectorExpr:
			if info.Selections[e] == nil {
				return info.Uses[e.Sel]
			}
			x = ast.Unparen(e.X)
		case *ast.StarExpr:
			x = ast.Unparen(e.X)
		default:
			return nil
		}
	}
}

// handlerTypePaths are the packages whose types a request handler's
// signature names (SignatureRoot).
var handlerTypePaths = map[string]bool{
	knowledge.PathHTTP: true, knowledge.PathGin: true, knowledge.PathEcho: true, knowledge.PathEchoV5: true,
	knowledge.PathFiberV2: true, knowledge.PathFiberV3: true, knowledge.PathHTTPRouter: true,
	knowledge.PathHertzApp: true, knowledge.PathConnect: true, knowledge.PathConnectOld: true,
}

// spellsHandlers reports whether pkg imports a package whose types a
// handler's signature names: only such a package can declare a function
// or literal of a handler's shape.
func spellsHandlers(pkg *types.Package) bool {
	for _, imp := range pkg.Imports() {
		if handlerTypePaths[imp.Path()] {
			return true
		}
	}
	return false
}
