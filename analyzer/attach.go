package analyzer

import (
	"fmt"
	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"go/ast"
	"go/types"
)

// attachFact carries a function's attach (dataflow.Attach) to its
// callers in other packages.
type attachFact dataflow.Attach

func (*attachFact) AFact() {}

func (f *attachFact) String() string { return fmt.Sprintf("attaches(req %d, ctx %d)", f.Req, f.Ctx) }

// exportAttaches exports an attachFact for each function of files that
// attaches a context parameter to a request parameter.
func (v *pkgView) exportAttaches(files []*ast.File) {
	info := v.pass.TypesInfo
	for fd, fn := range funcDecls(info, files) {
		if a, ok := dataflow.Attaches(info, fn.Type().(*types.Signature), fd.Body, v.ginFallback, v.attachOf); ok {
			af := attachFact(a)
			v.pass.ExportObjectFact(fn, &af)
		}
	}
}

// attachOf reads fn's attachFact.
func (v *pkgView) attachOf(fn *types.Func) (dataflow.Attach, bool) {
	var f attachFact
	if fn.Pkg() == nil || !v.pass.ImportObjectFact(fn, &f) {
		return dataflow.Attach{}, false
	}
	return dataflow.Attach(f), true
}
