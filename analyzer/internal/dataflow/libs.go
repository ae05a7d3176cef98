package dataflow

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
)

// GormFinishers are the *gorm.DB methods that run the statement built by
// the chain before them.
var GormFinishers = map[string]bool{
	"First": true, "Find": true, "Take": true, "Last": true, "Create": true, "Save": true,
	"Updates": true, "Update": true, "UpdateColumn": true, "UpdateColumns": true, "Delete": true,
	"Count": true, "Pluck": true, "Scan": true, "Exec": true, "Row": true, "Rows": true,
	"Transaction": true, "FirstOrCreate": true, "FirstOrInit": true, "FindInBatches": true,
	// db.Migrator().AutoMigrate(dst...): judged by the chain, like the
	// Migrator's own query methods (knowledge.GormMigratorMethod).
	"AutoMigrate": true,
}

// GormAssocFinishers are the *gorm.Association methods that run a query
// on the association's *gorm.DB.
var GormAssocFinishers = map[string]bool{
	"Find": true, "Append": true, "Replace": true, "Delete": true, "Clear": true, "Count": true,
}

// GormChainRoot returns the expression a *gorm.DB chain starts from
// (r.db in r.db.Where(...).Find(...) and in
// r.db.Model(&u).Association("Roles").Find(&rs)).
func GormChainRoot(info *types.Info, e ast.Expr) ast.Expr {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return e
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return e
		}
		if fn, _ := info.Uses[sel.Sel].(*types.Func); fn == nil || knowledge.GormReceiver(fn) == "" && knowledge.GormAssocReceiver(fn) == "" {
			return e
		}
		e = sel.X
	}
}

// ClientCtor reports what a SIO004 call builds, or "": a row of the
// clients table (internal/knowledge/calls.txt, or the user's), by key, or
// for a package-level function by a pattern row ("pkg/path.NewClient*").
func ClientCtor(clients map[string]string, fn *types.Func, key string) string {
	if what, ok := clients[key]; ok {
		return what
	}
	if named.Recv(fn) != nil {
		return ""
	}
	if p, ok := knowledge.MatchPattern(clients, fn.Pkg().Path(), fn.Name()); ok {
		return clients[p]
	}
	return ""
}

// IsFileIO reports whether a call is SIO006 file I/O: a row of the files
// table (the os file functions), or io.Copy/io.ReadAll/io.CopyN with an
// *os.File operand, an argument shape a row cannot state.
func IsFileIO(files map[string]bool, info *types.Info, call *ast.CallExpr, key string) bool {
	if files[key] {
		return true
	}
	switch key {
	case "io.Copy", "io.CopyN", "io.CopyBuffer", "io.ReadAll":
		for _, a := range call.Args {
			if named.Is(info.TypeOf(a), true, "os", "File") {
				return true
			}
		}
	}
	return false
}

// IsIOCall reports whether a call does I/O that honours its context. Besides
// the io rows of the tables (internal/knowledge/calls.txt), a call into a module outside the standard library whose first
// parameter is a context.Context is presumed to do I/O (SDK and driver
// calls, whose transports are reached through interfaces the facts cannot
// follow), except for logging and tracing packages, the project's own
// repository, whose I/O the facts already carry, and this project's
// blockwatch. A noio row (io[key] false) says a call does none.
func IsIOCall(io map[string]bool, fn *types.Func, sig *types.Signature, key, from string) bool {
	if isIO, known := io[key]; known {
		return isIO
	}
	path := fn.Pkg().Path()
	if sameRepo(path, from) {
		return false // the project's own code is analysed: its facts tell
	}
	first, _, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") || sig == nil || sig.Params().Len() == 0 || !named.IsContext(sig.Params().At(0).Type()) {
		return false
	}
	if knowledge.GormReceiver(fn) != "" {
		return false // WithContext and friends only build the chain
	}
	if path == blockwatchPath || strings.HasPrefix(path, blockwatchPath+"/") {
		return false // labels the goroutine (Hold, Drop, Do): no I/O
	}
	return !knowledge.Observability(path) && !knowledge.Metadata(path)
}

// blockwatchPath is this project's run-time watcher. A service outside
// this repository calls blockwatch.Hold in its handlers, often under the
// very lock or transaction it wants the watcher to show; Hold, Drop and Do
// take the request's context only to label the goroutine.
const blockwatchPath = "github.com/syncio/syncio/blockwatch"

// sameRepo reports whether two import paths share their first three
// elements (host/owner/repo), a cheap stand-in for "same module".
func sameRepo(a, b string) bool {
	pa, pb := strings.SplitN(a, "/", 4), strings.SplitN(b, "/", 4)
	if len(pa) < 3 || len(pb) < 3 {
		return false
	}
	return pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]
}

type GormCtx int

const (
	GormUnknown GormCtx = iota // a parameter or anything not followed
	GormNoCtx                  // rooted at a field, a global, an index expression on one, or a fresh chain with no WithContext
	GormWithCtx                // the chain went through WithContext or Session{Context: …}
	// gormSelf is, while a variable's assignments are being followed, the
	// variable itself (db = db.Where(…)): it adds nothing to its origin.
	gormSelf
)

// Chain answers, for query-builder chains in one body (*gorm.DB,
// *gorm.Association, gorm.Migrator; dbx's *DB, Builder, *Query,
// *SelectQuery, *ModelQuery), whether the chain carries a context: both
// libraries carry it in the chain, set by WithContext, and their
// finishers are judged by the chain before them. Local variables are
// followed through their assignments; a variable reassigned from its own
// chain (db = db.Where(…)) keeps the state of its other assignments, and
// a parameter's origin is unknown.
type Chain struct {
	info     *types.Info
	assign   map[*types.Var][]ast.Expr
	params   map[*types.Var]bool
	visiting map[*types.Var]bool
}

func NewChain(info *types.Info, sig *types.Signature, body *ast.BlockStmt) *Chain {
	g := &Chain{info: info, assign: map[*types.Var][]ast.Expr{}, params: map[*types.Var]bool{}, visiting: map[*types.Var]bool{}}
	if sig != nil {
		for i := range sig.Params().Len() {
			g.params[sig.Params().At(i)] = true
		}
	}
	add := func(lhs ast.Expr, rhs ast.Expr) {
		id, ok := ast.Unparen(lhs).(*ast.Ident)
		if !ok {
			return
		}
		if v, ok := info.ObjectOf(id).(*types.Var); ok && (IsGormDB(v.Type()) || isGormAssoc(v.Type()) || knowledge.IsGormMigrator(v.Type()) || knowledge.IsDbxType(v.Type())) {
			g.assign[v] = append(g.assign[v], rhs)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					add(n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i := range n.Names {
					add(n.Names[i], n.Values[i])
				}
			}
		}
		return true
	})
	return g
}

func IsGormDB(t types.Type) bool {
	return named.Is(t, true, knowledge.PathGorm, "DB") || named.Is(t, true, knowledge.PathGormV1, "DB")
}

func isGormAssoc(t types.Type) bool {
	return named.Is(t, true, knowledge.PathGorm, "Association") || named.Is(t, true, knowledge.PathGormV1, "Association")
}

// State classifies a *gorm.DB expression; depth bounds the walk through
// variables that are assigned from each other. A chain's links are no
// such step: each is a smaller expression, so a long chain ends anyway.
func (g *Chain) State(e ast.Expr, depth int) GormCtx {
	if depth > 8 {
		return GormUnknown
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok {
			return GormUnknown
		}
		fn, _ := g.info.Uses[sel.Sel].(*types.Func)
		if fn != nil && knowledge.DbxChainMethod(fn) {
			// r.db.NewQuery(q).Bind(args).WithContext(ctx): dbx sets
			// the context on the DB, the query or the select builder.
			if fn.Name() == "WithContext" {
				return GormWithCtx
			}
			return g.State(sel.X, depth)
		}
		if fn == nil || knowledge.GormReceiver(fn) == "" && knowledge.GormAssocReceiver(fn) == "" {
			return GormUnknown
		}
		switch fn.Name() {
		case "WithContext":
			return GormWithCtx
		case "Session":
			if len(e.Args) == 1 && hasField(e.Args[0], "Context") {
				return GormWithCtx
			}
		}
		return g.State(sel.X, depth)
	case *ast.SelectorExpr:
		if s := g.info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			return GormNoCtx // a stored *gorm.DB has no request context
		}
		if v, ok := g.info.Uses[e.Sel].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
			return GormNoCtx // a package-level variable of another package
		}
	case *ast.IndexExpr:
		// dbs[name]: a map or slice of *gorm.DB is stored like a field
		// when it is one or a package-level variable; a local one may
		// hold anything.
		switch x := ast.Unparen(e.X).(type) {
		case *ast.SelectorExpr:
			if s := g.info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return GormNoCtx
			}
			if v, ok := g.info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return GormNoCtx
			}
		case *ast.Ident:
			if v, ok := g.info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return GormNoCtx
			}
		}
	case *ast.Ident:
		v, ok := g.info.Uses[e].(*types.Var)
		if !ok {
			return GormUnknown
		}
		if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return GormNoCtx
		}
		if g.visiting[v] {
			return gormSelf
		}
		rhs := g.assign[v]
		if len(rhs) == 0 || g.params[v] {
			return GormUnknown // a parameter: its caller's chain decides
		}
		g.visiting[v] = true
		defer delete(g.visiting, v)
		st := gormSelf
		for _, x := range rhs {
			switch g.State(x, depth+1) {
			case GormWithCtx:
				return GormWithCtx
			case GormUnknown:
				st = GormUnknown
			case GormNoCtx:
				if st == gormSelf {
					st = GormNoCtx
				}
			}
		}
		if st == gormSelf && len(g.visiting) == 1 {
			return GormUnknown // only ever assigned from itself
		}
		return st
	}
	return GormUnknown
}

// hasField reports whether e is &T{...} or T{...} with a key named name.
func hasField(e ast.Expr, name string) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok {
		e = u.X
	}
	cl, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return true
			}
		}
	}
	return false
}

// pathOSS is the Aliyun OSS package, whose option functions the
// oss-option hook tells from a caller's values.
const pathOSS = "github.com/aliyun/aliyun-oss-go-sdk/oss"

// RoutedHooks implement the hooks a blocking row's routed field names
// (knowledge.RoutedHooks): each reports whether a call to the row's key
// may carry the request context through its receiver or an argument,
// which the key cannot show. Such a call is not reported.
var RoutedHooks = map[string]func(info *types.Info, call *ast.CallExpr) bool{
	// go-redis v7 commands: only a stored client (a field or a
	// package-level variable) has no request context;
	// rdb.WithContext(ctx).Get(k), locals and parameters may carry one.
	knowledge.RoutedStoredReceiver: func(info *types.Info, call *ast.CallExpr) bool {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		return !ok || !isStored(info, sel.X)
	},
	// oss.Bucket calls: an option that is not a plain oss option call may
	// be oss.WithContext.
	knowledge.RoutedOSSOption: ossContextOption,
	// Qiniu's BucketManager.Get: anything but nil or a GetObjectInput
	// literal without Context may carry one.
	knowledge.RoutedQiniuGetInput: func(info *types.Info, call *ast.CallExpr) bool {
		if len(call.Args) < 3 {
			return true
		}
		arg := ast.Unparen(call.Args[2])
		if id, ok := arg.(*ast.Ident); ok && id.Name == "nil" {
			return false
		}
		if u, ok := arg.(*ast.UnaryExpr); ok {
			arg = u.X
		}
		if _, ok := ast.Unparen(arg).(*ast.CompositeLit); ok {
			return hasField(arg, "Context")
		}
		return true // a variable: its Context may be set
	},
}

// CtxRouted reports whether a call to a blocking row may carry the request
// context after all, as the row's routed hook judges (false for a row
// with none).
func CtxRouted(routed string, info *types.Info, call *ast.CallExpr) bool {
	hook := RoutedHooks[routed]
	return hook != nil && hook(info, call)
}

// isStored reports whether e is a struct field or a package-level
// variable: a value stored outside the request, which carries no request
// context.
func isStored(info *types.Info, e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if s := info.Selections[e]; s != nil {
			return s.Kind() == types.FieldVal
		}
		v, ok := info.Uses[e.Sel].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
	}
	return false
}

// ossContextOption reports whether an oss.Bucket call may pass
// oss.WithContext among its variadic options: one does, or one is not a
// call to another oss function (a variable, a spread slice), so it may.
func ossContextOption(info *types.Info, call *ast.CallExpr) bool {
	sig, _ := info.TypeOf(call.Fun).(*types.Signature)
	if sig == nil || !sig.Variadic() || call.Ellipsis.IsValid() {
		return true
	}
	for _, a := range call.Args[min(sig.Params().Len()-1, len(call.Args)):] {
		c, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(info, c).(*types.Func)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pathOSS || fn.Name() == "WithContext" {
			return true
		}
	}
	return false
}
