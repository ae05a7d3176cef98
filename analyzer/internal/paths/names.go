package paths

import (
	"go/types"
	"strings"

	"github.com/syncio/syncio/analyzer/internal/knowledge"
)

// How a chain names the functions on it, for every stage that builds one.

// DisplayName names a callee in a chain: pkgname.F for project code.
func DisplayName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return knowledge.Qualified(fn, fn.Pkg().Name())
}

// TerminalName names the call that ends a chain: by import path for the
// standard library (database/sql.(*DB).QueryContext, like the SIO001
// table), by package name for everything else.
func TerminalName(fn *types.Func) string {
	path := fn.Pkg().Path()
	if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") {
		return knowledge.Qualified(fn, path)
	}
	return DisplayName(fn)
}
