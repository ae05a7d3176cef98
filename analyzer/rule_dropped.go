package analyzer

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// SIO002 dropped-context is decided in internal/rules (dropped.go, on
// rules.Contexts); this is what the analyzer hands it: the facts of the
// packages below, the configuration's roots and rows (newContexts), what
// the pre-passes scan, the summaries once they are known, the reporter's
// fixes, and the join's walk.

// newContexts is SIO002 for the package, before the pre-passes.
func (v *pkgView) newContexts() *rules.Contexts {
	c := v.rules.NewContexts(v.pass.Pkg, v.pass.Fset)
	c.Fact = func(fn *types.Func) (paths.BlocksFact, bool) {
		var f paths.BlocksFact
		ok := v.pass.ImportObjectFact(fn, &f)
		return f, ok
	}
	c.Root = v.cfg.isRoot
	c.Row = func(key string) bool { _, ok := v.cfg.Blocking[key]; return ok }
	c.Memory = v.cfg.Memory
	c.SitePos = v.sitePos
	return c
}

// scanContexts is the pre-pass of SIO002: the memory rows' packages the
// package hands context-taking callbacks (exported for the packages
// above), and its functions that never read their context.
func (s *scanned) scanContexts(files []*ast.File) {
	below := make([]analysis.Fact, len(s.view.below))
	for i, c := range s.view.below {
		below[i] = c.Fact
	}
	if f := s.ctxs.ScanCallbacks(files, below); f != nil {
		s.view.pass.ExportPackageFact(f)
	}
	s.ctxs.ScanUse(funcDecls(s.view.pass.TypesInfo, files))
}

// memoryRow, memoryIdle and dropMemory are rules.Contexts' MemoryRow,
// MemoryIdle and DropMemory, for the callers that resolve an item.
func (s *scanned) memoryRow(fn *types.Func) bool { return s.ctxs.MemoryRow(fn) }

func (s *scanned) memoryIdle() bool { return s.ctxs.MemoryIdle() }

func (s *scanned) dropMemory(f *paths.BlocksFact) *paths.BlocksFact { return s.ctxs.DropMemory(f) }

// idleDropped reports an SIO002 item whose callee, of this package, does
// nothing with the context (rules.Contexts.IdleDropped).
func (r *runner) idleDropped(it paths.Item) bool { return r.scanned.ctxs.IdleDropped(it, r.byFunc) }

// deferDropped returns the deferred candidate of a root's item whose
// paths (resolveAt) are fs, or false when the item is decided here
// (rules.Contexts.Defer).
func (r *runner) deferDropped(s *paths.Summary, it paths.Item, fs []*paths.Finding) (join.Dropped, bool) {
	return r.scanned.ctxs.Defer(s, it, fs, r.byFunc, r.view.rep.Fixes)
}

// decideDropped decides a deferred candidate with the bindings b this
// package sees (rules.Contexts.Decide), following its interface calls
// with the join's walk and bounds.
func (s *scanned) decideDropped(dc join.Dropped, b *paths.Bindings, reported map[string]bool) (string, bool) {
	dispatch := func(d paths.DynCall) ([]*paths.Finding, bool) {
		b.Start(join.MaxWork, join.MaxArgWork)
		fs := s.walk(b).Dispatch(d)
		return fs, b.Opaque
	}
	return s.ctxs.Decide(dc, b, reported, dispatch, s.view.rep.Report)
}

// opaqueItem and memOpaqueItem report whether an item hands a context to
// a call the analysis cannot follow, or to a memory row's function,
// itself or through its callee (rules.Contexts.OpaqueItem,
// rules.MemOpaqueItem).
func (r *runner) opaqueItem(it paths.Item) bool { return r.scanned.ctxs.OpaqueItem(it, r.byFunc) }

func (r *runner) memOpaqueItem(it paths.Item) bool { return rules.MemOpaqueItem(it, r.byFunc) }
