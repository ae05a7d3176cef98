package analyzer

import (
	"go/ast"
	"go/types"
	"strings"
)

// Import paths of the libraries recognised by path and type name; the
// analyzer never imports them.
const (
	pathGorm   = "gorm.io/gorm"
	pathGormV1 = "github.com/jinzhu/gorm"
	pathSqlx   = "github.com/jmoiron/sqlx"
	pathAzblob = "github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
)

// gormFinishers are the *gorm.DB methods that run the statement built by
// the chain before them.
var gormFinishers = map[string]bool{
	"First": true, "Find": true, "Take": true, "Last": true, "Create": true, "Save": true,
	"Updates": true, "Update": true, "UpdateColumn": true, "UpdateColumns": true, "Delete": true,
	"Count": true, "Pluck": true, "Scan": true, "Exec": true, "Row": true, "Rows": true,
	"Transaction": true, "FirstOrCreate": true, "FirstOrInit": true, "FindInBatches": true,
}

// sqlxMethods maps sqlx's context-less methods to their Context variant.
// Exec/Query/QueryRow on *sqlx.DB and *sqlx.Tx are promoted from
// database/sql and already in the table.
var sqlxMethods = map[string]string{
	"Get": "GetContext", "Select": "SelectContext", "Queryx": "QueryxContext",
	"QueryRowx": "QueryRowxContext", "NamedExec": "NamedExecContext", "NamedQuery": "NamedQueryContext",
	"MustExec": "MustExecContext", "Preparex": "PreparexContext", "PrepareNamed": "PrepareNamedContext",
}

// sqlxBlocking returns the SIO001 table entries for sqlx.
func sqlxBlocking() map[string]Replacement {
	defaultBlocking := map[string]Replacement{}
	for _, recv := range []string{"(*DB)", "(*Tx)", "(*Stmt)", "(*NamedStmt)"} {
		for m, ctxm := range sqlxMethods {
			if (recv == "(*Stmt)" || recv == "(*NamedStmt)") && (strings.HasPrefix(m, "Prepare") || strings.HasPrefix(m, "Named")) {
				continue
			}
			defaultBlocking[pathSqlx+"."+recv+"."+m] = Replacement{Use: "the sqlx " + ctxm + "(ctx, ...) method", Method: ctxm}
		}
	}
	for _, m := range []string{"Exec", "Query", "QueryRow"} {
		defaultBlocking[pathSqlx+".(*NamedStmt)."+m] = Replacement{Use: "stmt." + m + "Context(ctx, ...)", Method: m + "Context"}
	}
	defaultBlocking[pathSqlx+".(*DB).Beginx"] = Replacement{Use: "db.BeginTxx(ctx, nil)", Method: "BeginTxx", ExtraArgs: "nil"}
	defaultBlocking[pathSqlx+".(*DB).MustBegin"] = Replacement{Use: "db.MustBeginTx(ctx, nil)", Method: "MustBeginTx", ExtraArgs: "nil"}
	for _, f := range []string{"Get", "Select", "NamedExec", "NamedQuery"} {
		defaultBlocking[pathSqlx+"."+f] = Replacement{Use: "sqlx." + f + "Context(ctx, ...)", Method: f + "Context"}
	}
	return defaultBlocking
}

// gormAssocFinishers are the *gorm.Association methods that run a query
// on the association's *gorm.DB.
var gormAssocFinishers = map[string]bool{
	"Find": true, "Append": true, "Replace": true, "Delete": true, "Clear": true, "Count": true,
}

// gormChainRoot returns the expression a *gorm.DB chain starts from
// (r.db in r.db.Where(...).Find(...) and in
// r.db.Model(&u).Association("Roles").Find(&rs)).
func gormChainRoot(info *types.Info, e ast.Expr) ast.Expr {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return e
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return e
		}
		if fn, _ := info.Uses[sel.Sel].(*types.Func); fn == nil || gormReceiver(fn) == "" && gormAssocReceiver(fn) == "" {
			return e
		}
		e = sel.X
	}
}

// clientCtors are SIO004 constructors by call key. The value names what
// the call builds, for the message.
var clientCtors = map[string]string{
	"database/sql.Open":                             "a database connection pool",
	"net/http.(*Transport).Clone":                   "an HTTP transport (connection pool)",
	"google.golang.org/grpc.Dial":                   "a gRPC client connection",
	"google.golang.org/grpc.DialContext":            "a gRPC client connection",
	"google.golang.org/grpc.NewClient":              "a gRPC client connection",
	"github.com/redis/go-redis/v9.NewClient":        "a Redis connection pool",
	"github.com/redis/go-redis/v9.NewClusterClient": "a Redis connection pool",
	"github.com/jackc/pgx/v5/pgxpool.New":           "a PostgreSQL connection pool",
	"github.com/jackc/pgx/v5/pgxpool.NewWithConfig": "a PostgreSQL connection pool",
	"github.com/jmoiron/sqlx.Open":                  "a database connection pool",
	"github.com/jmoiron/sqlx.Connect":               "a database connection pool",
	"gorm.io/gorm.Open":                             "a database connection pool",
}

// azblobPkgs are the azblob packages whose NewClient* functions build an
// SDK client with its own HTTP pipeline.
var azblobPkgs = map[string]bool{
	pathAzblob: true, pathAzblob + "/container": true, pathAzblob + "/blockblob": true,
	pathAzblob + "/blob": true, pathAzblob + "/appendblob": true, pathAzblob + "/pageblob": true,
	pathAzblob + "/service": true,
}

// clientCtor reports what a SIO004 call builds, or "".
func clientCtor(fn *types.Func, key string) string {
	if what, ok := clientCtors[key]; ok {
		return what
	}
	if azblobPkgs[fn.Pkg().Path()] && recvOf(fn) == nil && strings.HasPrefix(fn.Name(), "NewClient") {
		return "an Azure Blob client and its HTTP pipeline"
	}
	return ""
}

const (
	clientDetail = "builds %s on every request: each one opens its own connections, pays TCP and TLS handshakes again and keeps no warm keep-alive connection"
	clientHint   = "build it once at start-up and share it; it is safe for concurrent use"
)

// fileFuncs are SIO006 calls.
var fileFuncs = map[string]bool{
	"os.ReadFile": true, "os.WriteFile": true, "os.Open": true, "os.OpenFile": true, "os.Create": true,
	"os.(*File).Read": true, "os.(*File).Write": true, "os.(*File).ReadAt": true, "os.(*File).WriteAt": true,
	"os.(*File).WriteString": true, "os.(*File).ReadFrom": true,
}

const (
	fileDetail = "does file I/O on the request path: it blocks an OS thread, not just a goroutine, and ignores the request context"
	fileHint   = "load it once at start-up (or embed it), or keep it if the file is small and local"
)

// isFileIO reports whether a call is SIO006 file I/O: an os file function,
// or io.Copy/io.ReadAll/io.CopyN with an *os.File operand.
func isFileIO(info *types.Info, call *ast.CallExpr, key string) bool {
	if fileFuncs[key] {
		return true
	}
	switch key {
	case "io.Copy", "io.CopyN", "io.CopyBuffer", "io.ReadAll":
		for _, a := range call.Args {
			if isNamed(info.TypeOf(a), true, "os", "File") {
				return true
			}
		}
	}
	return false
}

// ioCalls are context-aware calls that do I/O: fine on their own, but not
// while a lock is held (SIO003).
var ioCalls = map[string]bool{
	"net/http.(*Client).Do": true, "net/http.(*Transport).RoundTrip": true,
	"database/sql.(*DB).ExecContext": true, "database/sql.(*DB).QueryContext": true,
	"database/sql.(*DB).QueryRowContext": true, "database/sql.(*DB).BeginTx": true,
	"database/sql.(*DB).PingContext": true, "database/sql.(*Tx).ExecContext": true,
	"database/sql.(*Tx).QueryContext": true, "database/sql.(*Tx).QueryRowContext": true,
	"database/sql.(*Tx).Commit": true, "database/sql.(*Stmt).ExecContext": true,
	"database/sql.(*Stmt).QueryContext": true, "database/sql.(*Conn).ExecContext": true,
	"database/sql.(*Conn).QueryContext": true, "net.(*Dialer).DialContext": true,
	"os/exec.(*Cmd).Run": true, "os/exec.(*Cmd).Output": true, "os/exec.(*Cmd).CombinedOutput": true,
	"os/exec.(*Cmd).Wait": true,
}

// isIOCall reports whether a call does I/O that honours its context. Besides
// ioCalls, a call into a module outside the standard library whose first
// parameter is a context.Context is presumed to do I/O (SDK and driver
// calls, whose transports are reached through interfaces the facts cannot
// follow), except for logging and tracing packages and the project's own
// repository, whose I/O the facts already carry.
func isIOCall(fn *types.Func, sig *types.Signature, key, from string) bool {
	if ioCalls[key] {
		return true
	}
	path := fn.Pkg().Path()
	if sameRepo(path, from) {
		return false // the project's own code is analysed: its facts tell
	}
	first, _, _ := strings.Cut(path, "/")
	if !strings.Contains(first, ".") || sig == nil || sig.Params().Len() == 0 || !isContextType(sig.Params().At(0).Type()) {
		return false
	}
	if gormReceiver(fn) != "" {
		return false // WithContext and friends only build the chain
	}
	for _, skip := range []string{"log", "slog", "zap", "zerolog", "logrus", "otel", "opentelemetry", "trace", "metadata"} {
		if strings.Contains(path, skip) {
			return false
		}
	}
	return true
}

// sameRepo reports whether two import paths share their first three
// elements (host/owner/repo), a cheap stand-in for "same module".
func sameRepo(a, b string) bool {
	pa, pb := strings.SplitN(a, "/", 4), strings.SplitN(b, "/", 4)
	if len(pa) < 3 || len(pb) < 3 {
		return false
	}
	return pa[0] == pb[0] && pa[1] == pb[1] && pa[2] == pb[2]
}

// gormReceiver returns the gorm import path when fn is a method of
// *gorm.DB (v2 or v1), else "".
func gormReceiver(fn *types.Func) string {
	recv := recvOf(fn)
	if recv == nil {
		return ""
	}
	for _, path := range []string{pathGorm, pathGormV1} {
		if isNamed(recv.Type(), true, path, "DB") {
			return path
		}
	}
	return ""
}

// gormAssocReceiver returns the gorm import path when fn is a method of
// *gorm.Association (v2 or v1), else "".
func gormAssocReceiver(fn *types.Func) string {
	recv := recvOf(fn)
	if recv == nil {
		return ""
	}
	for _, path := range []string{pathGorm, pathGormV1} {
		if isNamed(recv.Type(), true, path, "Association") {
			return path
		}
	}
	return ""
}

type gormCtx int

const (
	gormUnknown gormCtx = iota // a parameter or anything not followed
	gormNoCtx                  // rooted at a field, a global, an index expression on one, or a fresh chain with no WithContext
	gormWithCtx                // the chain went through WithContext or Session{Context: …}
	// gormSelf is, while a variable's assignments are being followed, the
	// variable itself (db = db.Where(…)): it adds nothing to its origin.
	gormSelf
)

// gormFlow answers, for *gorm.DB (and *gorm.Association) expressions in
// one body, whether the chain carries a context. Local variables are
// followed through their assignments; a variable reassigned from its own
// chain (db = db.Where(…)) keeps the state of its other assignments, and
// a parameter's origin is unknown.
type gormFlow struct {
	info     *types.Info
	assign   map[*types.Var][]ast.Expr
	params   map[*types.Var]bool
	visiting map[*types.Var]bool
}

func newGormFlow(info *types.Info, sig *types.Signature, body *ast.BlockStmt) *gormFlow {
	g := &gormFlow{info: info, assign: map[*types.Var][]ast.Expr{}, params: map[*types.Var]bool{}, visiting: map[*types.Var]bool{}}
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
		if v, ok := info.ObjectOf(id).(*types.Var); ok && (isGormDB(v.Type()) || isGormAssoc(v.Type())) {
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

func isGormDB(t types.Type) bool {
	return isNamed(t, true, pathGorm, "DB") || isNamed(t, true, pathGormV1, "DB")
}

func isGormAssoc(t types.Type) bool {
	return isNamed(t, true, pathGorm, "Association") || isNamed(t, true, pathGormV1, "Association")
}

// state classifies a *gorm.DB expression; depth bounds the walk through
// variables that are assigned from each other.
func (g *gormFlow) state(e ast.Expr, depth int) gormCtx {
	if depth > 8 {
		return gormUnknown
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr)
		if !ok {
			return gormUnknown
		}
		fn, _ := g.info.Uses[sel.Sel].(*types.Func)
		if fn == nil || gormReceiver(fn) == "" && gormAssocReceiver(fn) == "" {
			return gormUnknown
		}
		switch fn.Name() {
		case "WithContext":
			return gormWithCtx
		case "Session":
			if len(e.Args) == 1 && hasField(e.Args[0], "Context") {
				return gormWithCtx
			}
		}
		return g.state(sel.X, depth+1)
	case *ast.SelectorExpr:
		if s := g.info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
			return gormNoCtx // a stored *gorm.DB has no request context
		}
		if v, ok := g.info.Uses[e.Sel].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
			return gormNoCtx // a package-level variable of another package
		}
	case *ast.IndexExpr:
		// dbs[name]: a map or slice of *gorm.DB is stored like a field
		// when it is one or a package-level variable; a local one may
		// hold anything.
		switch x := ast.Unparen(e.X).(type) {
		case *ast.SelectorExpr:
			if s := g.info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return gormNoCtx
			}
			if v, ok := g.info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return gormNoCtx
			}
		case *ast.Ident:
			if v, ok := g.info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return gormNoCtx
			}
		}
	case *ast.Ident:
		v, ok := g.info.Uses[e].(*types.Var)
		if !ok {
			return gormUnknown
		}
		if v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return gormNoCtx
		}
		if g.visiting[v] {
			return gormSelf
		}
		rhs := g.assign[v]
		if len(rhs) == 0 || g.params[v] {
			return gormUnknown // a parameter: its caller's chain decides
		}
		g.visiting[v] = true
		defer delete(g.visiting, v)
		st := gormSelf
		for _, x := range rhs {
			switch g.state(x, depth+1) {
			case gormWithCtx:
				return gormWithCtx
			case gormUnknown:
				st = gormUnknown
			case gormNoCtx:
				if st == gormSelf {
					st = gormNoCtx
				}
			}
		}
		if st == gormSelf && len(g.visiting) == 1 {
			return gormUnknown // only ever assigned from itself
		}
		return st
	}
	return gormUnknown
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
