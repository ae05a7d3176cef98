package analyzer

import (
	"go/ast"

	"github.com/syncio/syncio/analyzer/seen"
)

// joinCalls is the join stage (dispatch.go): the pending calls and dropped
// contexts of this package and those below, with the conversions and
// stores this package records. It returns the calls through slots that
// the join followed to none of the funcs stored there.
func (r *runner) joinCalls(files []*ast.File, rootLits map[*ast.FuncLit]bool, pending []pendingCall, dropped []droppedCall) []seen.Unfollowed {
	convs := r.recordConversions(files)
	convs = append(convs, r.recordStores(rootLits)...)
	return r.join(pending, dropped, convs)
}
