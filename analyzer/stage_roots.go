package analyzer

import (
	"go/ast"
	"go/types"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// bodies are the package's bodies turned into items, as the roots stage
// hands them to the stages after it.
type bodies struct {
	// decls are summarised by the fixpoint: the package's functions, and
	// the literals it stores, calls through a value or passes to
	// interface methods.
	decls []*fnSummary
	// roots are the request roots: functions, handler literals, and other
	// packages' functions handed to an adapter here.
	roots []*fnSummary
	// rootLits are the handler literals among roots.
	rootLits map[*ast.FuncLit]bool
}

// findRoots is the roots stage: every body of the package becomes items,
// and those that serve requests are the roots.
func (r *runner) findRoots(files []*ast.File) *bodies {
	b := &bodies{rootLits: map[*ast.FuncLit]bool{}}
	returned := returnedLits(r.pass.TypesInfo, files)
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				r.handlerLits(d, nil, returned, b)
				continue
			}
			if fd.Body == nil {
				continue
			}
			fn, _ := r.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			s := &fnSummary{fn: fn, root: resolve.DeclRoot(fn, r.dirs.Handler(fd.Doc)), ignores: r.dirs.FuncIgnores(fd.Doc), name: declName(fd, fn), pos: fd.Name.Pos(), end: fd.End()}
			s.how, s.framework = seen.HowSignature, frameworkOf(s.root)
			if s.root == resolve.RootCustom {
				s.how = seen.HowDirective
			}
			if fn != nil {
				s.sig, _ = fn.Type().(*types.Signature)
				if s.root == resolve.NotRoot {
					if how, framework, ok := r.rootBy(fn, nil, s.sig); ok {
						s.root, s.how, s.framework = resolve.RootCustom, how, framework
					}
				}
				r.byFunc[fn] = s
			}
			s.items = r.collect(s.sig, fd.Body)
			if len(r.memos.Of(fn)) > 0 {
				// A memoiser's own waits are for another caller's
				// construction, once per key.
				for i := range s.items {
					s.items[i].once = true
				}
			}
			b.decls = append(b.decls, s)
			if s.root != resolve.NotRoot {
				if fn != nil {
					markBranch(s, fn, refKey(fn))
				}
				b.roots = append(b.roots, s)
			}
			r.handlerLits(fd.Body, s.ignores, returned, b)
		}
	}

	// Other packages' functions handed to an adapter here are roots too;
	// their facts say what they do.
	for _, ref := range r.cb.adaptedExt {
		if it, ok := r.refItem(ref.fn, ref.pos, ref.end, nil); ok {
			s := &fnSummary{root: resolve.RootCustom, name: ref.in, ignores: ref.ignores, items: []item{it},
				pos: ref.pos, how: ref.how, framework: ref.framework, label: displayName(ref.fn)}
			markBranch(s, ref.fn, refKey(ref.fn))
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
func (r *scanned) handlerLits(n ast.Node, ignores []*directive.Ignore, returned map[*ast.FuncLit]*types.Func, b *bodies) {
	ast.Inspect(n, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok {
			return true
		}
		sig, _ := r.pass.TypesInfo.TypeOf(lit).(*types.Signature)
		k := resolve.SignatureRoot(sig)
		how, framework := seen.HowSignature, frameworkOf(k)
		if k == resolve.NotRoot {
			var ok bool
			if how, framework, ok = r.rootBy(nil, lit, sig); ok {
				k = resolve.RootCustom
			}
		}
		if k != resolve.NotRoot {
			b.rootLits[lit] = true
			s := &fnSummary{root: k, sig: sig, name: "func literal", ignores: ignores, pos: lit.Pos(), end: lit.End(), how: how, framework: framework,
				wraps: r.handlers.Wraps(lit)}
			if fn := returned[lit]; fn != nil {
				markBranch(s, nil, retKey(fn))
			}
			s.items = r.collect(sig, lit.Body)
			b.roots = append(b.roots, s)
		}
		return true
	})
}
