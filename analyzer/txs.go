package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/regions"
)

// SIO007 beyond the regions: gRPC client calls under an open transaction,
// what counts as remote, and the rule's hint.

// grpcUnderTx makes the calls through a generated gRPC client interface
// (a method whose first parameter is a context.Context, declared in a
// package that imports google.golang.org/grpc) made while a transaction is
// open remote I/O: interface dispatch does not carry the transaction, and
// the generated client's concrete type is rarely bound where the analysis
// can see it.
func (v *pkgView) grpcUnderTx(body *ast.BlockStmt, txs []regions.Tx, items []paths.Item, invoked map[*ast.FuncLit]bool) []paths.Item {
	info := v.pass.TypesInfo
	at := map[*ast.CallExpr]int{}
	for i, it := range items {
		if it.Call != nil {
			at[it.Call] = i
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
			if sig == nil || sig.Params().Len() == 0 || !named.IsContext(sig.Params().At(0).Type()) {
				return true
			}
			i, ok := at[n]
			if ok && items[i].Term != nil {
				return true
			}
			it := paths.Item{Pos: n.Pos(), End: n.End(), Call: n}
			if ok {
				it = items[i]
			}
			it.Tx = regions.OpenTxAt(info, txs, it.Pos, it.Call)
			if it.Tx == "" {
				return true
			}
			it.Term = &paths.Finding{Chain: []string{paths.DisplayName(im)}, Sites: []string{v.site(n.Pos())}, Poses: []token.Pos{n.Pos()}}
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
