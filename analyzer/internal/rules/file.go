package rules

import (
	"go/ast"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/paths"
)

// SIO006 file-io (opt-in): os file I/O on the request path. The calls are
// the file rows of knowledge's call table (dataflow.IsFileIO). Like every
// operation, one is recorded whether or not the rule is on: resolveAt
// applies the configuration, and file I/O under a lock is SIO003's.

const (
	fileDetail = "does file I/O on the request path: it blocks an OS thread, not just a goroutine, and ignores the request context"
	fileHint   = "load it once at start-up (or embed it), or keep it if the file is small and local"
)

// FileCall is the item of a call that does file I/O.
func (p *Pkg) FileCall(call *ast.CallExpr, key string, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	if !dataflow.IsFileIO(p.FileRows, p.Info, call, key) {
		return paths.Item{}, false
	}
	return mk("SIO006", key, fileDetail, fileHint), true
}
