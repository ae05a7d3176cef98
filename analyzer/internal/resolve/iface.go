package resolve

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/named"
)

// InterfaceMethod returns the method of a named interface type that call
// invokes through dynamic dispatch, or nil.
func InterfaceMethod(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	recv := named.Recv(fn)
	if recv == nil {
		return nil
	}
	if _, ok := recv.Type().Underlying().(*types.Interface); !ok {
		return nil
	}
	if _, ok := types.Unalias(recv.Type()).(*types.Named); !ok {
		return nil
	}
	return fn
}
