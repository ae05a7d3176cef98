package dataflow

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
)

// A request builder makes an *http.Request with http.NewRequest and
// returns it for its caller to send (x/oauth2's newTokenRequest, whose
// caller RetrieveToken sends it through doTokenRoundTrip(ctx, req), which
// does req.WithContext(ctx)). The request is only built there; whether it
// carries the request's context is decided where it is sent. So a caller
// that gives the result a context before sending it (Later.Silenced) has
// not made a context-less request, and the builder's http.NewRequest is
// not its finding. A builder that does anything else that could block
// stays what it is: the test below admits only value work.

// BuilderFact marks a function that builds an *http.Request and returns
// it for its caller to send (BuildsRequest), for callers in other
// packages.
type BuilderFact struct{}

// AFact marks BuilderFact as an object fact.
func (*BuilderFact) AFact() {}

func (*BuilderFact) String() string { return "builds-request" }

// builderPkgs are the packages whose functions a builder may call: they
// make values, and do no I/O.
var builderPkgs = map[string]bool{
	"strings": true, "strconv": true, "bytes": true, "errors": true,
	"net/url": true, "encoding/json": true, "encoding/base64": true, "encoding/hex": true,
}

// Builders returns the functions declared in files that build a request
// for their caller (BuildsRequest).
func Builders(info *types.Info, files []*ast.File) map[*types.Func]bool {
	decls := map[*types.Func]*ast.FuncDecl{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil {
					decls[fn] = fd
				}
			}
		}
	}
	out := map[*types.Func]bool{}
	for fn, fd := range decls {
		if BuildsRequest(info, fn.Type().(*types.Signature), fd.Body, func(f *types.Func) *ast.FuncDecl { return decls[f] }) {
			out[fn] = true
		}
	}
	return out
}

// BuildsRequest reports whether the function of sig and body builds an
// *http.Request with http.NewRequest and returns it (its first result),
// doing nothing else than value work: calls of builderPkgs, of the
// request's and its header's methods, of builtins and conversions, and of
// same-package functions (decl) that do only such work themselves.
func BuildsRequest(info *types.Info, sig *types.Signature, body *ast.BlockStmt, decl func(*types.Func) *ast.FuncDecl) bool {
	if body == nil || sig.Results().Len() == 0 || !named.Is(sig.Results().At(0).Type(), true, knowledge.PathHTTP, "Request") {
		return false
	}
	made := map[types.Object]bool{}
	ok, builds := true, false
	ast.Inspect(body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false // a literal may run anything, later
		case *ast.GoStmt, *ast.DeferStmt:
			ok = false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && isNewRequest(info, n.Rhs[0]) {
				if id, isID := n.Lhs[0].(*ast.Ident); isID {
					made[info.ObjectOf(id)] = true
					builds = true
				}
			}
		case *ast.ReturnStmt:
			if len(n.Results) == 0 {
				ok = false
				break
			}
			switch r := ast.Unparen(n.Results[0]).(type) {
			case *ast.Ident:
				if r.Name != "nil" && !made[info.ObjectOf(r)] {
					ok = false
				}
			default:
				ok = false
			}
		case *ast.CallExpr:
			if !isNewRequest(info, n) && !valueCall(info, n, decl, 1) {
				ok = false
			}
		}
		return ok
	})
	return ok && builds
}

func isNewRequest(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := typeutil.StaticCallee(info, call)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == knowledge.PathHTTP && fn.Name() == "NewRequest" && named.Recv(fn) == nil
}

// valueCall reports whether call only computes a value: a builtin, a
// conversion, a function of builderPkgs, a method of *http.Request or
// http.Header, or (depth allowing) a same-package function whose calls
// are all such.
func valueCall(info *types.Info, call *ast.CallExpr, decl func(*types.Func) *ast.FuncDecl, depth int) bool {
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return true
	}
	fn := typeutil.StaticCallee(info, call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	if builderPkgs[fn.Pkg().Path()] {
		return true
	}
	if fn.Pkg().Path() == "fmt" {
		// Sprintf and Errorf make values; Fprintf and Println write.
		return strings.HasPrefix(fn.Name(), "Sprint") || fn.Name() == "Errorf"
	}
	if r := named.Recv(fn); r != nil && fn.Pkg().Path() == knowledge.PathHTTP &&
		(named.Is(r.Type(), true, knowledge.PathHTTP, "Request") || named.Is(r.Type(), false, knowledge.PathHTTP, "Header")) {
		return fn.Name() != "Write" && fn.Name() != "WriteProxy" && fn.Name() != "ParseMultipartForm" && fn.Name() != "ParseForm" && fn.Name() != "FormValue"
	}
	if depth == 0 || decl == nil {
		return false
	}
	fd := decl(fn)
	if fd == nil || fd.Body == nil {
		return false
	}
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			ok = false
		case *ast.CallExpr:
			if !valueCall(info, n, decl, depth-1) {
				ok = false
			}
		}
		return ok
	})
	return ok
}
