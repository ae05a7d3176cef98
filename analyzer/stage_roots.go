package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/branches"
	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/registry"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// bodies are the package's bodies turned into items, as the roots stage
// hands them to the stages after it.
type bodies struct {
	// decls are summarised by the fixpoint: the package's functions, and
	// the literals it stores, calls through a value or passes to
	// interface methods.
	decls []*paths.Summary
	// roots are the request roots: functions, handler literals, and other
	// packages' functions handed to an adapter here.
	roots []*paths.Summary
	// rootLits are the handler literals among roots.
	rootLits map[*ast.FuncLit]bool
}

// findRoots is the roots stage: every body of the package becomes items,
// and those that serve requests are the roots.
func (r *runner) findRoots(files []*ast.File) *bodies {
	b := &bodies{rootLits: map[*ast.FuncLit]bool{}}
	returned := branches.ReturnedLits(r.view.pass.TypesInfo, files)
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				r.scanned.handlerLits(d, nil, returned, b)
				continue
			}
			if fd.Body == nil {
				continue
			}
			fn, _ := r.view.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			s := &paths.Summary{Func: fn, Root: resolve.DeclRoot(fn, r.view.dirs.Handler(fd.Doc)), Ignores: r.view.dirs.FuncIgnores(fd.Doc), Name: declName(fd, fn), Pos: fd.Name.Pos(), End: fd.End()}
			s.How, s.Framework = seen.HowSignature, registry.FrameworkOf(s.Root)
			if s.Root == resolve.RootCustom {
				s.How = seen.HowDirective
			}
			if fn != nil {
				s.Sig, _ = fn.Type().(*types.Signature)
				if s.Root == resolve.NotRoot {
					if how, framework, ok := r.scanned.rootBy(fn, nil, s.Sig); ok {
						s.Root, s.How, s.Framework = resolve.RootCustom, how, framework
					}
				}
				r.byFunc[fn] = s
			}
			s.Items = r.scanned.collect(s.Sig, fd.Body)
			if len(r.scanned.memos.Of(fn)) > 0 {
				// A memoiser's own waits are for another caller's
				// construction, once per key.
				for i := range s.Items {
					s.Items[i].Once = true
				}
			}
			s.SplitGuards()
			b.decls = append(b.decls, s)
			if s.Root != resolve.NotRoot {
				if fn != nil {
					branches.Mark(s, fn, branches.Key(fn))
				}
				b.roots = append(b.roots, s)
			}
			r.scanned.handlerLits(fd.Body, s.Ignores, returned, b)
		}
	}

	// Other packages' functions handed to an adapter here are roots too;
	// their facts say what they do.
	for _, ref := range r.scanned.cb.adaptedExt {
		if it, ok := r.scanned.refItem(ref.fn, ref.pos, ref.end, nil); ok {
			s := &paths.Summary{Root: resolve.RootCustom, Name: ref.in, Ignores: ref.ignores, Items: []paths.Item{it},
				Pos: ref.pos, How: ref.how, Framework: ref.framework, Label: paths.DisplayName(ref.fn)}
			branches.Mark(s, ref.fn, branches.Key(ref.fn))
			b.roots = append(b.roots, s)
		}
	}

	// The literals the package stores into slots, or calls through a
	// value, are summarised like its functions.
	b.decls = append(b.decls, r.laterLits(files, b.rootLits)...)
	// So are those passed to interface methods: a binding may call them.
	b.decls = append(b.decls, r.argLitSummaries(b.rootLits)...)
	return b
}

// handlerLits adds the handler literals under n (router arguments,
// http.HandlerFunc conversions, …) to b's roots; they inherit the
// enclosing function's doc-comment ignores.
func (s *scanned) handlerLits(n ast.Node, ignores []*directive.Ignore, returned map[*ast.FuncLit]*types.Func, b *bodies) {
	ast.Inspect(n, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		sig, _ := s.view.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		k := resolve.SignatureRoot(sig)
		how, framework := seen.HowSignature, registry.FrameworkOf(k)
		if k == resolve.NotRoot {
			var ok bool
			if how, framework, ok = s.rootBy(nil, lit, sig); ok {
				k = resolve.RootCustom
			}
		}
		if k != resolve.NotRoot {
			b.rootLits[lit] = true
			sum := &paths.Summary{Root: k, Sig: sig, Name: "func literal", Ignores: ignores, Pos: lit.Pos(), End: lit.End(), How: how, Framework: framework,
				Wraps: s.handlers.Wraps(lit)}
			if fn := returned[lit]; fn != nil {
				branches.Mark(sum, nil, branches.RetKey(fn))
			}
			sum.Items = s.collect(sig, lit.Body)
			b.roots = append(b.roots, sum)
		}
		return true
	})
}
