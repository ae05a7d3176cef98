package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/report"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
)

// Call resolution: what an item of a body leads to. Rules classify calls
// and operations (classify.go) into items; this file, dispatch.go and
// callbacks.go resolve the callees behind them (same package, other
// packages' facts, interface dispatch, callbacks and adapters), so the
// rules never learn how a callee was found. Each rule's own decisions are
// in its file of internal/rules.

// resolveAt returns what an item of s leads to, after configuration and
// suppressions: rules that are off or ignored are dropped (an ignored
// operation still counts as I/O under a lock), a lock held at the item is
// added, and so is a transaction open across a remote call (SIO007). The first finding is the item's main path (the callee's summary),
// the others are the paths of its other rules; none means the item
// neither blocks nor does I/O.
func (r *runner) resolveAt(s *paths.Summary, it paths.Item) []*paths.Finding {
	f := r.resolve(it)
	if f == nil {
		return nil
	}
	var out []*paths.Finding
	for _, p := range f.All() {
		// A path whose rule is off is still I/O: under a lock it is
		// SIO003, and a caller may hold one (summary's paths.KeepIO).
		if g := r.view.applyConfig(s, it, p); g != nil {
			out = append(out, g)
		}
	}
	return out
}

// applyConfig is resolveAt for one path.
func (v *pkgView) applyConfig(s *paths.Summary, it paths.Item, f *paths.Finding) *paths.Finding {
	return v.rules.Apply(f, it.Lock, it.Tx, func(rule string) bool {
		return (it.Bounded && rule == rules.DeadlineRule) || v.rep.Suppressed(s, it, rule)
	})
}

// resolve returns the blocking path behind an item, or nil.
func (r *runner) resolve(it paths.Item) *paths.Finding {
	switch {
	case it.Term != nil:
		if r.idleDropped(it) {
			return nil
		}
		if !it.Joined {
			return it.Term
		}
		return r.joinWait(it)
	case it.Ext != nil:
		if len(it.Ext.Chain) == 0 {
			return nil // only interface calls, resolved by dispatch
		}
		f := r.view.fromFact(it.Ext)
		for i := range it.Ext.More {
			f.More = append(f.More, r.view.fromFact(&it.Ext.More[i]))
		}
		return paths.OwnLocks(f.Prepend(it.Name, r.view.site(it.Pos), it.Pos), it.RecvOwn)
	case it.Lit != nil:
		callee := r.litSummaries[it.Lit]
		if callee == nil || callee.Result == nil {
			return nil
		}
		return paths.OwnLocks(callee.WithMore(rules.Lockable).Prepend(it.Name, r.view.site(it.Pos), it.Pos), it.RecvOwn)
	case it.Local != nil:
		callee := r.local(it)
		if callee == nil || callee.Root != resolve.NotRoot || callee.Result == nil {
			return nil
		}
		return paths.OwnLocks(callee.WithMore(rules.Lockable).Prepend(it.Name, r.view.site(it.Pos), it.Pos), it.RecvOwn)
	}
	return nil
}

// local is the summary a call of a function of this package leads to:
// the callee's, or the one without its guarded items (paths.IfGiven) when
// the call makes every guard false.
func (r *runner) local(it paths.Item) *paths.Summary {
	s := r.byFunc[it.Local]
	if s != nil && s.IfGiven != nil && it.Call != nil && paths.Off(s.Guards, dataflow.CtxGiven(r.view.pass.TypesInfo, it.Call)) {
		return s.IfGiven
	}
	return s
}

// fromFact is the finding of one path of another package's fact.
func (v *pkgView) fromFact(bf *paths.BlocksFact) *paths.Finding {
	f := &paths.Finding{Rule: bf.Rule, Lock: bf.Lock, Tx: bf.Tx, Chain: bf.Chain, Sites: bf.Sites, Detail: bf.Detail, Hint: bf.Hint,
		Kind: bf.Kind, Ref: bf.Ref, Gin: bf.Gin, Over: bf.Over}
	for _, s := range bf.Sites {
		f.Poses = append(f.Poses, v.sitePos(s))
	}
	return f
}

func (v *pkgView) site(pos token.Pos) string {
	p := v.pass.Fset.Position(pos)
	return p.Filename + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// sitePos maps a "file:line:col" site back to a position in this pass's
// file set (report.SitePos: from disk when go vet's file set has only a
// stand-in for the file); token.NoPos when it cannot.
func (v *pkgView) sitePos(site string) token.Pos {
	if v.files == nil {
		v.files = report.FileTable(v.pass.Fset)
	}
	return report.SitePos(v.pass.Fset, v.files, site)
}

// refItem is an item for a call of fn at [pos, end): a function value
// passed to a synchronous parameter, or handed to an adapter.
func (s *scanned) refItem(fn *types.Func, pos, end token.Pos, call *ast.CallExpr) (paths.Item, bool) {
	fn = fn.Origin()
	if fn.Pkg() == nil {
		return paths.Item{}, false
	}
	if key := knowledge.Qualified(fn, fn.Pkg().Path()); s.view.cfg.Allow[key] || knowledge.OptIn(key) {
		return paths.Item{}, false // allowed, or run only in a mode the program opts into elsewhere
	}
	if fn.Pkg() == s.view.pass.Pkg {
		return paths.Item{Pos: pos, End: end, Call: call, Local: fn, Name: paths.DisplayName(fn)}, true
	}
	var f paths.BlocksFact
	if s.view.pass.ImportObjectFact(fn, &f) {
		if call != nil {
			f = *f.ForCall(dataflow.CtxGiven(s.view.pass.TypesInfo, call))
		}
		ext := s.dropMemory(&f)
		if ext.Opaque && s.memoryRow(fn) {
			// The row's func values are the program's callbacks: opaque
			// only where it registers one taking a context.
			cp := *ext
			cp.Opaque, cp.OpaqueMemory = false, true
			ext = &cp
		}
		if len(ext.Chain) == 0 && len(ext.Dyn) == 0 && !ext.Opaque && !ext.OpaqueMemory {
			return paths.Item{}, false
		}
		return paths.Item{Pos: pos, End: end, Call: call, Ext: ext, Name: paths.DisplayName(fn)}, true
	}
	return paths.Item{}, false
}

// funcRef returns the function a func-valued expression names (f, pkg.F,
// x.Method as a method value), or nil.
func funcRef(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		if fn != nil && named.Recv(fn) == nil {
			return fn
		}
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			if _, iface := sel.Recv().Underlying().(*types.Interface); iface {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}
