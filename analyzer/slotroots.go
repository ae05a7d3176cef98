package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// findSlotRoots makes the functions the package stores into slots that
// the roots of the packages below call request roots (join.FindSlotRoots):
// this package's in run's root pass, another package's at the store, as
// an adapter's argument is, named after the function that stores it and
// under its ignores.
func (s *scanned) findSlotRoots(files []*ast.File) {
	var decls map[*types.Func]*ast.FuncDecl
	s.slotRoots = join.FindSlotRoots(s.view.pass, s.view.thirdParty, s.view.below, s.stored, s.handlers, func(fn *types.Func, st resolve.Store, fw string) {
		if decls == nil {
			decls = map[*types.Func]*ast.FuncDecl{}
			for fd, fn := range funcDecls(s.view.pass.TypesInfo, files) {
				decls[fn] = fd
			}
		}
		in, ignores := s.view.pass.Pkg.Name(), []*directive.Ignore(nil)
		if fd := decls[st.In]; fd != nil {
			in, ignores = declName(fd, st.In), s.view.dirs.FuncIgnores(fd.Doc)
		}
		s.cb.addExt(adaptedRef{fn: fn, pos: st.Value.Pos(), end: st.Value.End(), in: in, ignores: ignores,
			how: seen.HowStored, framework: fw})
	})
}
