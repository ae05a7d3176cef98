package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/registry"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Functions passed to handler adapters. (Callbacks run on the spot, and
// their CallsFact, are resolve's: internal/resolve/sync.go; the adapters
// themselves and their AdapterFact too: internal/resolve/adapters.go.)
//
// adapt(listUsers), for an adapter adapt, makes listUsers a request root,
// whatever its shape, and so does a conversion appHandler(f) to an
// adapter func type. Only functions really passed to an adapter become
// roots: a shape alone (func(Deps, *Ctx)) makes nothing a root.

// callbacks is what the pre-pass learns about the package's functions
// before their bodies are summarised.
type callbacks struct {
	adapted     map[*types.Func]bool  // local functions passed to an adapter
	adaptedLits map[*ast.FuncLit]bool // literals passed to an adapter
	adaptedExt  []adaptedRef          // other packages' functions passed to an adapter
}

// adaptedRef is another package's function passed to an adapter here.
type adaptedRef struct {
	fn       *types.Func
	pos, end token.Pos
	in       string // the function that registers it
	ignores  []*directive.Ignore
	// how and framework say, for the roots report, what made it a root:
	// an adapter of the program, or a router's registration call.
	how, framework string
}

// addExt adds ref to adaptedExt, unless the same function is there already
// at the same argument or at one around or inside it: an adapter's argument
// that a registration call resolves to as well (mux.HandleFunc("/r",
// adapt(h.Report)) gives h.Report from the adapter and, through adapt's
// returned literal, from the registration). One root, at the narrower
// place, the function value itself; two would report every finding twice.
func (cb *callbacks) addExt(ref adaptedRef) {
	for i, x := range cb.adaptedExt {
		if x.fn != ref.fn {
			continue
		}
		switch {
		case x.pos <= ref.pos && ref.end <= x.end:
			cb.adaptedExt[i] = ref
			return
		case ref.pos <= x.pos && x.end <= ref.end:
			return
		}
	}
	cb.adaptedExt = append(cb.adaptedExt, ref)
}

// scanCallbacks runs before bodies are summarised: it finds the package's
// synchronous callbacks and adapters, exports them as facts, and finds the
// functions passed to adapters.
func (s *scanned) scanCallbacks(files []*ast.File) {
	info := s.view.pass.TypesInfo
	cb := &callbacks{adapted: map[*types.Func]bool{}, adaptedLits: map[*ast.FuncLit]bool{}}
	s.cb = cb
	s.handlers = resolve.New(info, s.view.pass.Pkg, files)
	s.handlers.IsHandler = registry.IsHandlerType
	s.reg = registry.New(s.view.pass, s.handlers, s.view.site, func(ref registry.Ref) {
		cb.addExt(adaptedRef{fn: ref.Fn, pos: ref.Pos, end: ref.End, in: ref.In, ignores: ref.Ignores,
			how: seen.HowRegistration, framework: ref.Framework})
	})
	s.sync = resolve.NewSync(s.view.pass, s.slots)
	s.adapters = resolve.NewAdapters(s.view.pass, s.handlers, s.sync)
	isRoot := func(d resolve.Decl) bool {
		return resolve.DeclRoot(d.Fn, s.view.dirs.Handler(d.Fd.Doc)) != resolve.NotRoot
	}
	var decls []resolve.Decl
	for fd, fn := range funcDecls(info, files) {
		sig := fn.Type().(*types.Signature)
		decls = append(decls, resolve.Decl{Fd: fd, Fn: fn, Params: resolve.FuncParams(sig)})
		// The appHandler idiom: a func type whose ServeHTTP calls the
		// value it is called on.
		if recv := sig.Recv(); recv != nil && resolve.DeclRoot(fn, s.view.dirs.Handler(fd.Doc)) != resolve.NotRoot {
			s.adapters.RootMethod(fd, recv)
		}
	}
	s.sync.Scan(decls)
	s.memos = resolve.NewMemos(s.view.pass)
	s.memos.Scan(decls)
	s.adapters.Scan(decls, isRoot)
	// What is passed to an adapter, anywhere in the package: as an
	// argument to an adapter's parameter, or converted (explicitly, as an
	// argument, a field or an element) to an adapter func type.
	for _, f := range files {
		for _, d := range f.Decls {
			in := s.view.pass.Pkg.Name()
			var ignores []*directive.Ignore
			if fd, ok := d.(*ast.FuncDecl); ok {
				in = fd.Name.Name
				if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil {
					in = declName(fd, fn)
				}
				ignores = s.view.dirs.FuncIgnores(fd.Doc)
			}
			ast.Inspect(d, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					s.reg.VisitAssign(n, in, ignores)
					return true
				}
				s.reg.Visit(call, in, ignores)
				var args []ast.Expr
				if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
					if len(call.Args) == 1 && s.adapters.IsType(tv.Type) {
						args = call.Args
					}
				} else {
					for _, j := range s.adapters.Params(typeutil.StaticCallee(info, call)) {
						if j >= 0 && j < len(call.Args) {
							args = append(args, call.Args[j])
						}
					}
					// Implicit conversions: router.For(path, s.handleIndex)
					// with a parameter of a handler func type.
					if sig, _ := info.TypeOf(call.Fun).(*types.Signature); sig != nil {
						for i, a := range call.Args {
							var pt types.Type
							switch {
							case sig.Variadic() && i >= sig.Params().Len()-1:
								if sl, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok && !call.Ellipsis.IsValid() {
									pt = sl.Elem()
								}
							case i < sig.Params().Len():
								pt = sig.Params().At(i).Type()
							}
							if pt != nil && s.adapters.IsType(pt) {
								args = append(args, a)
							}
						}
					}
				}
				for _, a := range args {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						cb.adaptedLits[lit] = true
						continue
					}
					fn := funcRef(info, a)
					switch {
					case fn == nil:
					case fn.Pkg() == s.view.pass.Pkg:
						cb.adapted[fn.Origin()] = true
					default:
						cb.addExt(adaptedRef{fn: fn.Origin(), pos: a.Pos(), end: a.End(), in: in, ignores: ignores, how: seen.HowAdapter, framework: "custom"})
					}
				}
				return true
			})
		}
	}
	s.reg.Registrars()
}

// funcDecls yields the functions and methods declared in files that have
// a body, with their objects.
func funcDecls(info *types.Info, files []*ast.File) iter.Seq2[*ast.FuncDecl, *types.Func] {
	return func(yield func(*ast.FuncDecl, *types.Func) bool) {
		for _, f := range files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if fn, _ := info.Defs[fd.Name].(*types.Func); fn != nil && !yield(fd, fn) {
					return
				}
			}
		}
	}
}
