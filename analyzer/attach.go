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
// attaches a context parameter to a request parameter, and a BuilderFact
// for each that builds a request for its caller.
func (v *pkgView) exportAttaches(files []*ast.File) {
	info := v.pass.TypesInfo
	builders := dataflow.Builders(info, files)
	for fd, fn := range funcDecls(info, files) {
		if a, ok := dataflow.Attaches(info, fn.Type().(*types.Signature), fd.Body, v.ginFallback, v.attachOf); ok {
			af := attachFact(a)
			v.pass.ExportObjectFact(fn, &af)
		}
		if builders[fn] {
			v.pass.ExportObjectFact(fn, new(dataflow.BuilderFact))
		}
	}
}

// buildsRequest reports whether fn builds a request for its caller to
// send (x/oauth2's newTokenRequest; dataflow.BuildsRequest).
func (v *pkgView) buildsRequest(fn *types.Func) bool {
	return fn.Origin().Pkg() != nil && v.pass.ImportObjectFact(fn.Origin(), new(dataflow.BuilderFact))
}

// attachOf reads fn's attachFact.
func (v *pkgView) attachOf(fn *types.Func) (dataflow.Attach, bool) {
	var f attachFact
	if fn.Pkg() == nil || !v.pass.ImportObjectFact(fn, &f) {
		return dataflow.Attach{}, false
	}
	return dataflow.Attach(f), true
}
