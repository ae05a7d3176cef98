package branches

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Key is the key of fn in seen.Root.Key and seen.Ref.Key.
func Key(fn *types.Func) string { return fn.Origin().FullName() }

// RetKey is the key of the root literal that fn returns.
func RetKey(fn *types.Func) string { return "ret:" + Key(fn) }

// Mark sets s.Key and s.Branch: a root found by its shape or by an
// adapter, that is no middleware, no gRPC or connect method and no
// ServeHTTP (those run through interfaces, which the program does not
// call by name), may be a dispatch branch.
func Mark(s *paths.Summary, fn *types.Func, key string) {
	s.Key = key
	if s.Wraps || (s.How != seen.HowSignature && s.How != seen.HowAdapter) {
		return
	}
	switch s.Root {
	case resolve.RootGRPC, resolve.RootGRPCStream, resolve.RootConnect:
		return
	}
	if fn != nil && fn.Name() == "ServeHTTP" {
		return
	}
	s.Branch = true
}

// ReturnedLits maps each func literal that a declared function returns
// as such (return func(…) {…}) to that function: cc.ConnectorLogin(c)(ctx)
// runs the literal on the spot.
func ReturnedLits(info *types.Info, files []*ast.File) map[*ast.FuncLit]*types.Func {
	out := map[*ast.FuncLit]*types.Func{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			returned(fd.Body, fn, out)
		}
	}
	return out
}

// returned adds to out the literals body returns as such.
func returned(body *ast.BlockStmt, fn *types.Func, out map[*ast.FuncLit]*types.Func) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
					out[lit] = fn
				}
			}
		}
		return true
	})
}

// refs is what Refs reads of the package.
type refs struct {
	info     *types.Info
	pkg      *types.Package
	adapters *resolve.Adapters
	site     func(token.Pos) string
}

// Refs counts the references of pkg's files to the functions that are
// roots here (roots marked by Mark), and to other packages' functions of
// a handler's shape (or that return one, or are handed to one of
// adapters), which may be roots there. site writes a position as facts
// do.
func Refs(info *types.Info, pkg *types.Package, adapters *resolve.Adapters, site func(token.Pos) string, files []*ast.File, roots []*paths.Summary) []seen.Ref {
	r := &refs{info: info, pkg: pkg, adapters: adapters, site: site}
	own := map[string]bool{}
	for _, s := range roots {
		if s.Branch {
			own[s.Key] = true
		}
	}
	counts := map[string]*seen.Ref{}
	var order []string
	add := func(key string, call bool, at ast.Node) {
		x := counts[key]
		if x == nil {
			x = &seen.Ref{Key: key}
			counts[key] = x
			order = append(order, key)
		}
		if !call {
			x.Values++
			return
		}
		x.Calls++
		if x.At == "" {
			x.At = r.site(at.Pos())
		}
	}
	var stack []ast.Node
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			fn, _ := info.Uses[id].(*types.Func)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			// The expression that names fn: the identifier, or the
			// selector (pkg.F, s.handleX) it ends.
			i := len(stack) - 1
			if i > 0 {
				if sel, ok := stack[i-1].(*ast.SelectorExpr); ok && sel.Sel == id {
					i--
				}
			}
			key := Key(fn)
			sig, _ := fn.Type().(*types.Signature)
			foreign := fn.Pkg() != r.pkg && !knowledge.StdPath(fn.Pkg().Path())
			if own[key] || foreign && r.mayBeRoot(sig, stack[:i+1]) {
				call, at := r.calledOnSpot(stack[:i+1], false)
				add(key, call, at)
			}
			if own[RetKey(fn)] || foreign && returnsRoot(sig) {
				call, at := r.calledOnSpot(stack[:i+1], true)
				add(RetKey(fn), call, at)
			}
			return true
		})
	}
	out := make([]seen.Ref, 0, len(order))
	for _, k := range order {
		out = append(out, *counts[k])
	}
	return out
}

// mayBeRoot reports whether another package's function, named by the
// last node of path, may be a root there: it has a handler's shape, or it
// is handed to an adapter here.
func (r *refs) mayBeRoot(sig *types.Signature, path []ast.Node) bool {
	if resolve.SignatureRoot(sig) != resolve.NotRoot {
		return true
	}
	_, ok := r.adapterArg(path)
	return ok
}

// returnsRoot reports whether sig's one result has a handler's shape.
func returnsRoot(sig *types.Signature) bool {
	if sig == nil || sig.Results().Len() != 1 {
		return false
	}
	res, _ := sig.Results().At(0).Type().Underlying().(*types.Signature)
	return resolve.SignatureRoot(res) != resolve.NotRoot
}

// outer is the index in path of the outermost parenthesised expression
// around path's last node (the node itself without parentheses).
func outer(path []ast.Node) int {
	i := len(path) - 1
	for i > 0 {
		if _, ok := path[i-1].(*ast.ParenExpr); !ok {
			break
		}
		i--
	}
	return i
}

// adapterArg returns the path to the call that path's last node is an
// argument of, when that call is a conversion or its callee an adapter of
// the program that turns that parameter into a handler.
func (r *refs) adapterArg(path []ast.Node) ([]ast.Node, bool) {
	i := outer(path)
	if i == 0 {
		return nil, false
	}
	call, ok := path[i-1].(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	arg := slices.Index(call.Args, path[i].(ast.Expr))
	if arg < 0 {
		return nil, false
	}
	info := r.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return path[:i], true // a conversion, handleFunc(f)
	}
	if callee := typeutil.StaticCallee(info, call); callee != nil && slices.Contains(r.adapters.Params(callee), arg) {
		return path[:i], true
	}
	// A parameter of one of the program's handler func types, converted
	// implicitly: s.ensureAdmin(s.handleUsersGet) with ensureAdmin(next
	// handleFunc) handleFunc.
	if sig, _ := info.TypeOf(call.Fun).(*types.Signature); sig != nil && !sig.Variadic() && arg < sig.Params().Len() &&
		r.adapters.IsType(sig.Params().At(arg).Type()) {
		return path[:i], true
	}
	return nil, false
}

// callee returns the path to the call whose callee is path's last node.
func callee(path []ast.Node) ([]ast.Node, bool) {
	i := outer(path)
	if i == 0 {
		return nil, false
	}
	call, ok := path[i-1].(*ast.CallExpr)
	if !ok || call.Fun != path[i] {
		return nil, false
	}
	return path[:i], true
}

// calledOnSpot reports whether the function named by path's last node is
// called where it is named, and the call: f(…), or adapt(f)(…) through
// any number of the program's adapters. With result, the function is one
// that returns a root literal, and the literal is what counts: f(…)(…).
// Any other use is a value, which may reach a router anywhere.
func (r *refs) calledOnSpot(path []ast.Node, result bool) (bool, ast.Node) {
	if result {
		p, ok := callee(path)
		if !ok {
			return false, nil
		}
		if p, ok = callee(p); !ok {
			return false, nil
		}
		return true, p[len(p)-1]
	}
	for {
		p, ok := r.adapterArg(path)
		if !ok {
			break
		}
		path = p
	}
	if p, ok := callee(path); ok {
		return true, p[len(p)-1]
	}
	return false, nil
}
