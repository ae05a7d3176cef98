package analyzer

import (
	"go/ast"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO006 file-io (opt-in): os file I/O on the request path. The calls are
// the file rows of knowledge's call table (isFileIO, libs.go). Like every
// operation, one is recorded whether or not the rule is on: resolveAt
// applies the configuration, and file I/O under a lock is SIO003's.

// fileCall is the item of a call that does file I/O.
func (r *pkgView) fileCall(call *ast.CallExpr, key string, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	if !isFileIO(r.cfg.Files, r.pass.TypesInfo, call, key) {
		return paths.Item{}, false
	}
	return mk("SIO006", key, fileDetail, fileHint), true
}
