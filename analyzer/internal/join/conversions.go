package join

import (
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/dispatch"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Conversions finds the conversions of concrete types to followed
// interfaces in files, after the package's summaries are known, with
// what each concrete method does (Method), and the interface-to-interface
// conversions as edges.
func (rec *Recorder) Conversions(files []*ast.File) []paths.Conv {
	info := rec.Pass.TypesInfo
	seen := map[string]bool{}
	var out []paths.Conv
	var addType func(t, dst types.Type, where string)
	add := func(src ast.Expr, dst types.Type, where string) {
		if src == nil {
			return
		}
		if tv, ok := info.Types[src]; ok && tv.IsNil() {
			return
		}
		addType(info.TypeOf(src), dst, where)
	}
	addType = func(t, dst types.Type, where string) {
		if dst == nil || t == nil {
			return
		}
		if _, ok := dst.Underlying().(*types.Interface); !ok {
			return
		}
		ikey, ok := dispatch.IfaceKey(dst)
		if !ok {
			return
		}
		if _, ok := t.Underlying().(*types.Interface); ok {
			// Interface to interface: an edge that the concrete types
			// converted to the source interface travel along.
			if from, ok := dispatch.IfaceKey(t); ok && from != ikey && !seen[from+"→"+ikey] {
				seen[from+"→"+ikey] = true
				out = append(out, paths.Conv{From: from, Iface: ikey})
				rec.Holds.Convert(t, dst)
			}
			return
		}
		if !rec.Tests && testDouble(rec.Pass.Pkg, t) {
			return // a test double is no binding of the server's
		}
		name := types.TypeString(t, func(p *types.Package) string { return p.Name() })
		k := name + "→" + ikey
		if seen[k] {
			return
		}
		seen[k] = true
		rec.Holds.Convert(t, dst)
		var methods []paths.ConvMethod
		ms := types.NewMethodSet(t)
		for i := range ms.Len() {
			fn, _ := ms.At(i).Obj().(*types.Func)
			if fn == nil {
				continue
			}
			bf, calls := rec.Method(fn), rec.Calls(fn)
			if bf == nil && len(calls) > 0 {
				bf = &paths.BlocksFact{}
			}
			if bf == nil && rec.Opaque(fn) {
				// It hands its context to something unseen: no
				// path to dispatch, but evidence for SIO002's
				// deferred candidates (bindings.opaque).
				bf = &paths.BlocksFact{Opaque: true}
			}
			if bf != nil {
				methods = append(methods, paths.ConvMethod{Name: fn.Name(), Fact: bf, Calls: calls})
			}
		}
		switch {
		case len(methods) > 0:
			out = append(out, paths.Conv{Type: name, Iface: ikey, Where: where, Methods: methods, Dep: rec.ThirdParty})
		case !seen["idle→"+ikey]:
			seen["idle→"+ikey] = true
			out = append(out, paths.Conv{Type: name, Iface: ikey, Where: where, Dep: rec.ThirdParty})
		}
	}
	var walk func(n ast.Node, results *types.Tuple, where string)
	walk = func(n ast.Node, results *types.Tuple, where string) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				sig, _ := info.TypeOf(n).(*types.Signature)
				if sig != nil {
					walk(n.Body, sig.Results(), where)
				}
				return false
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						add(n.Rhs[i], info.TypeOf(n.Lhs[i]), where)
					}
				} else if tuple, ok := info.TypeOf(n.Rhs[0]).(*types.Tuple); ok && len(n.Rhs) == 1 && tuple.Len() == len(n.Lhs) {
					for i := range n.Lhs {
						addType(tuple.At(i).Type(), info.TypeOf(n.Lhs[i]), where)
					}
				}
			case *ast.ValueSpec:
				if n.Type != nil && len(n.Values) == len(n.Names) {
					for _, v := range n.Values {
						add(v, info.TypeOf(n.Type), where)
					}
				}
			case *ast.ReturnStmt:
				switch {
				case results == nil:
				case len(n.Results) == results.Len():
					for i, e := range n.Results {
						add(e, results.At(i).Type(), where)
					}
				case len(n.Results) == 1 && results.Len() > 1:
					// return postgres.New(path): a tuple into the results.
					if tuple, ok := info.TypeOf(n.Results[0]).(*types.Tuple); ok && tuple.Len() == results.Len() {
						for i := range tuple.Len() {
							addType(tuple.At(i).Type(), results.At(i).Type(), where)
						}
					}
				}
			case *ast.CompositeLit:
				dispatch.CompositeConversions(info, n, func(e ast.Expr, t types.Type) { add(e, t, where) })
			case *ast.CallExpr:
				tv, ok := info.Types[n.Fun]
				if ok && tv.IsType() && len(n.Args) == 1 {
					add(n.Args[0], tv.Type, where)
					return true
				}
				if !ok || tv.Type == nil {
					return true
				}
				sig, _ := tv.Type.Underlying().(*types.Signature)
				if sig == nil {
					return true
				}
				for i, a := range n.Args {
					var pt types.Type
					switch {
					case sig.Variadic() && i >= sig.Params().Len()-1:
						if n.Ellipsis.IsValid() {
							continue
						}
						if s, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok {
							pt = s.Elem()
						}
					case i < sig.Params().Len():
						pt = sig.Params().At(i).Type()
					}
					add(a, pt, where)
				}
			}
			return true
		})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body == nil {
					continue
				}
				fn, _ := info.Defs[d.Name].(*types.Func)
				where := rec.Pass.Pkg.Name() + "." + d.Name.Name
				var results *types.Tuple
				if fn != nil {
					where = paths.DisplayName(fn)
					results = fn.Type().(*types.Signature).Results()
				}
				walk(d.Body, results, where)
			default:
				walk(d, nil, rec.Pass.Pkg.Name())
			}
		}
	}
	return out
}
