package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// SIO002 dropped-context: a call that takes a context is given one the
// request cannot cancel (context.Background(), a detached one, gin's
// *gin.Context under its defaults). Where the context comes from is
// dataflow.Ctx's; whether the callee can block with it is decided here
// (factlessIdle) and at the root's call (resolveAt: an idle callee of the
// same package is silent).

// droppedContext reports a call whose first argument is a context the
// request cannot cancel. The rule's fixes need the argument (fixArg); a
// framework value (gin's c) also yields what the call leads to otherwise.
func (r *scanned) droppedContext(call *ast.CallExpr, sig *types.Signature, fn *types.Func, flow *dataflow.Ctx, gorm *dataflow.Chain, later *dataflow.Later, mk func(rule, name, detail, hint string) paths.Item) (paths.Item, bool) {
	if sig != nil && sig.Params().Len() > 0 && len(call.Args) > 0 &&
		named.IsContext(sig.Params().At(0).Type()) &&
		(fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.PathContext) &&
		(!r.thirdParty || fn != nil) {
		if ci := flow.Classify(call.Args[0]); ci.Class == dataflow.CtxDropped && !r.factlessIdle(fn) && !r.ignoresContext(fn, sig) {
			memory := r.memoryRow(fn)
			if memory && r.memoryIdle() {
				return paths.Item{}, false // the context reaches only the library's own callbacks
			}
			name := types.ExprString(call.Fun)
			if fn != nil && fn.Pkg() != nil {
				name = paths.TerminalName(fn)
			}
			arg := ast.Unparen(call.Args[0])
			given := ci.Desc
			if id, ok := arg.(*ast.Ident); ok {
				given = id.Name + " (" + ci.Desc + ")"
			}
			hint := "pass the request's context, or context.WithoutCancel(ctx) for work that must outlive the request"
			if use := dataflow.FrameworkCtxFix(arg, ci.Desc); use != "" {
				hint = "pass " + use
				it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
				if memory {
					it.Term.Kind = knowledge.OpMemory
				}
				it.FixArg = arg
				// Passing c is everywhere in gin services, and the callee's own
				// blocking (a ctx-less query, a sleep) is a problem of its own.
				if rest, ok := r.classifyCall(call, flow, gorm, later, true); ok {
					it.Also = &rest
				}
				return it, true
			}
			it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
			if memory {
				it.Term.Kind = knowledge.OpMemory
			}
			if c, ok := arg.(*ast.CallExpr); ok && (ci.Desc == "context.Background()" || ci.Desc == "context.TODO()") {
				it.FixArg = c
			}
			return it, true
		}
	}
	return paths.Item{}, false
}

// factlessIdle reports whether fn, given a dropped context, is a function
// of another analysed package that exports no paths.BlocksFact: nothing on its
// paths does I/O or waits (an in-memory validator's VarCtx), so the
// context it is given reaches no blocking operation and is no SIO002.
// The standard library exports no facts (its I/O is judged by the
// tables), so its functions keep the signature rule, as do interface
// methods and func values; the same package's callees are judged in
// resolve (idleCallee), once their summaries are known. A callee that
// returns anything but basic values and errors may return the context
// inside it (plainResults), and is never idle.
func (r *scanned) factlessIdle(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == r.pass.Pkg || knowledge.StdPath(fn.Pkg().Path()) || !plainResults(fn) {
		return false
	}
	if _, ok := r.cfg.Blocking[knowledge.Qualified(fn, fn.Pkg().Path())]; ok {
		return false
	}
	// A request root exports no fact whatever it does (a gRPC method
	// called with context.Background()).
	if r.cfg.isRoot(fn) {
		return false
	}
	var f paths.BlocksFact
	if !r.pass.ImportObjectFact(fn, &f) {
		return true
	}
	// A fact holding only interface calls made inside dependencies
	// (paths.DynCall.Dep) is no evidence of I/O, as when they were not kept;
	// nor is a context handed only to a memory row's library that the
	// program gives no context-taking callback (memoryIdle).
	memoryBusy := f.OpaqueMemory && !r.memoryIdle()
	return len(f.Chain) == 0 && len(f.More) == 0 && !f.Opaque && !memoryBusy && !paths.OwnDyn(f.Dyn)
}

// Callees that never read their context. A function of the module whose
// context parameter (the first) is unnamed, "_", or never referenced in
// its body cannot hand the context it is given to anything: not to a
// call, a closure, a field or a result. Whatever it blocks on, it does
// with a context of its own (apache/answer's GetAIProvider(ctx) does its
// reads with context.TODO()), which is reported at the same call as a
// path of its own; the call's SIO002 would suggest a fix that changes
// nothing. Any reference keeps the finding, even one that cannot carry
// the context (ctx.Err(), a log line): the test is syntactic, not a
// flow analysis. Only the module's code is judged so (not a
// dependency's, not the standard library, which has no body here), and
// only a static callee: an interface method or func value may be bound
// to a function that does read it.

// ignoresContext reports whether the call's static callee fn, of this
// module, never reads the context parameter the call gives a dropped
// context: from ctxUnused for this package, from its paths.BlocksFact
// (CtxUnused) for another (a callee with no fact is factlessIdle).
func (r *scanned) ignoresContext(fn *types.Func, sig *types.Signature) bool {
	if fn == nil || fn.Pkg() == nil || r.thirdParty {
		return false
	}
	fn = fn.Origin()
	// A method expression's signature has the receiver first: its first
	// argument is not the method's context parameter.
	if own, _ := fn.Type().(*types.Signature); own == nil || sig == nil || own.Params().Len() != sig.Params().Len() {
		return false
	}
	if fn.Pkg() == r.pass.Pkg {
		return r.ctxUnused[fn]
	}
	var f paths.BlocksFact
	return r.pass.ImportObjectFact(fn, &f) && f.CtxUnused
}

// scanCtxUse records the functions of this package, module code, whose
// first parameter is a context.Context never referenced in their body
// (ctxUnused).
func (r *scanned) scanCtxUse(files []*ast.File) {
	r.ctxUnused = map[*types.Func]bool{}
	if r.thirdParty {
		return
	}
	info := r.pass.TypesInfo
	used := map[*types.Var]bool{}
	for _, obj := range info.Uses {
		if v, ok := obj.(*types.Var); ok && !v.IsField() {
			used[v] = true
		}
	}
	for _, fn := range funcDecls(info, files) {
		sig, _ := fn.Type().(*types.Signature)
		if sig == nil || sig.Params().Len() == 0 || !named.IsContext(sig.Params().At(0).Type()) {
			continue
		}
		if p := sig.Params().At(0); p.Name() == "" || p.Name() == "_" || !used[p] {
			r.ctxUnused[fn] = true
		}
	}
}

// plainResults reports whether fn returns only basic values and errors:
// nothing that could carry the context it is given to I/O done later (a
// builder such as gorm's db.WithContext(ctx) returns the *gorm.DB that
// its finisher runs with ctx).
func plainResults(fn *types.Func) bool {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil {
		return false
	}
	for i := range sig.Results().Len() {
		t := sig.Results().At(i).Type()
		if _, basic := t.Underlying().(*types.Basic); !basic && !named.IsError(t) {
			return false
		}
	}
	return true
}

// idleDropped reports an SIO002 item whose callee, of this package, shows
// no I/O in its summary, hands the context to nothing unseen and returns
// only plain values: the context reaches nothing that blocks
// (factlessIdle is the same for other packages). A join's worker that
// only selects on its ctx.Done() (opaque) is still idle work for
// joinBlocks.
func (r *runner) idleDropped(it paths.Item) bool {
	if it.Term.Rule != "SIO002" || !r.idleCallee(it) {
		return false
	}
	fn := typeutil.StaticCallee(r.pass.TypesInfo, it.Call)
	return !r.byFunc[fn.Origin()].Opaque && plainResults(fn)
}

// Memory rows (knowledge.KindMemory): a function of an in-memory library
// that takes a context and does no I/O with it, handing it only to the
// func values kept by the library (go-playground/validator's StructCtx and
// the validation funcs). The analysis cannot follow those func values, so
// the function is opaque, and before the rows every Struct call (which
// gives StructCtx context.Background()) was a SIO002 on every request
// path. Whether the context can reach I/O depends on what the program
// registers, which a dependency's pass cannot see: there the operation is
// kept, marked OpMemory, and the program drops it (memoryIdle) unless it
// hands one of the rows' packages a function that takes a context
// (ctxCallbacks: RegisterValidationCtx(tag, fn) keeps the finding; a Func
// given to RegisterValidation, which never sees the context, does not).

// ctxCallbackFact lists the memory rows' packages that a package hands a
// function taking a context (a callback the library may give the context
// it was given).
type ctxCallbackFact struct{ Pkgs []string }

func (*ctxCallbackFact) AFact() {}

func (f *ctxCallbackFact) String() string { return "ctxcallbacks(" + strings.Join(f.Pkgs, ",") + ")" }

// importPath is path without a GOPATH vendor directory's prefix, the path
// the rows name.
func importPath(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		return path[i+len("/vendor/"):]
	}
	return path
}

// memoryRow reports whether fn is a memory row's function.
func (r *pkgView) memoryRow(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || len(r.cfg.Memory) == 0 {
		return false
	}
	return r.cfg.Memory[knowledge.Qualified(fn.Origin(), importPath(fn.Pkg().Path()))]
}

// memoryIdle reports whether a dropped context given to a memory row's
// function reaches nothing here: the program's passes decide, once they
// know the callbacks (a dependency's pass keeps the operation, marked).
func (r *scanned) memoryIdle() bool {
	return !r.thirdParty && len(r.ctxCallbacks) == 0
}

// scanCtxCallbacks records the memory rows' packages that this package,
// or one it imports, hands a function taking a context: an argument of a
// func type with a context.Context parameter to a function of that
// package.
func (r *scanned) scanCtxCallbacks(files []*ast.File) {
	r.ctxCallbacks = map[string]bool{}
	if r.thirdParty || len(r.cfg.Memory) == 0 {
		return
	}
	for _, pf := range r.below {
		if f, ok := pf.Fact.(*ctxCallbackFact); ok {
			for _, p := range f.Pkgs {
				r.ctxCallbacks[p] = true
			}
		}
	}
	pkgs := map[string]bool{}
	for k := range r.cfg.Memory {
		pkgs[resolve.SlotPkg(k)] = true
	}
	info := r.pass.TypesInfo
	own := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(info, call).(*types.Func)
			if fn == nil || fn.Pkg() == nil || !pkgs[importPath(fn.Pkg().Path())] {
				return true
			}
			for _, a := range call.Args {
				if sig, ok := info.TypeOf(a).Underlying().(*types.Signature); ok && takesContext(sig) {
					own[importPath(fn.Pkg().Path())] = true
				}
			}
			return true
		})
	}
	if len(own) > 0 {
		ps := slices.Sorted(maps.Keys(own))
		r.pass.ExportPackageFact(&ctxCallbackFact{Pkgs: ps})
		for _, p := range ps {
			r.ctxCallbacks[p] = true
		}
	}
}

// takesContext reports whether sig has a context.Context parameter.
func takesContext(sig *types.Signature) bool {
	for i := range sig.Params().Len() {
		if named.IsContext(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// dropMemory returns f without its SIO002 operations marked OpMemory (a
// context handed to an in-memory library) when the program registers no
// callback that could use it (memoryIdle); f itself otherwise. The
// remaining paths keep their order, the first becoming the main one.
func (r *scanned) dropMemory(f *paths.BlocksFact) *paths.BlocksFact {
	if !r.memoryIdle() {
		return f
	}
	memory := func(e *paths.BlocksFact) bool { return e.Rule == "SIO002" && e.Kind == knowledge.OpMemory }
	drop := memory(f)
	for i := range f.More {
		drop = drop || memory(&f.More[i])
	}
	if !drop {
		return f
	}
	var keep []paths.BlocksFact
	if main := *f; !memory(&main) {
		main.More, main.Dyn, main.Opaque = nil, nil, false
		keep = append(keep, main)
	}
	for _, m := range f.More {
		if !memory(&m) {
			keep = append(keep, m)
		}
	}
	out := &paths.BlocksFact{}
	if len(keep) > 0 {
		*out = keep[0]
		out.More = keep[1:]
	}
	out.Dyn, out.Opaque = f.Dyn, f.Opaque
	return out
}

// Deferred candidates. A callee whose only evidence of I/O is calls
// through interfaces (or slots) that the root's package cannot resolve,
// because the program binds them in main or a wiring package above it
// (apache/answer's GetUserCacheInfo reaching pacman's cache.Cache, bound
// to the in-memory cache), was reported by the signature rule whatever
// the binding does. Such a SIO002 at a root's call is not decided in the
// root's package: it travels up in the join.PendingFact (join.Dropped, with the
// callee's interface calls seen from the root) and each join decides it
// with the bindings it sees (decideDropped):
//
//   - reported, once (join.JoinedFact), at the root's call with the same
//     message and the root's suggested fix, carried by site (join.Fix),
//     when some binding followed reaches an
//     operation (a finding or context-aware I/O, at any hop) or hands its
//     context to something unseen (paths.BlocksFact.Opaque);
//   - left for the packages above when the bindings seen reach nothing:
//     a package above may see another binding (a second main binding a
//     database-backed cache);
//   - reported by the signature rule in package main (not a test
//     binary's generated one, programMain) when some
//     context-taking interface call of the candidate has no binding at
//     all in the program: nothing imports main, so no binding can come
//     later, and an interface the program never binds (a value made by
//     reflection or a plugin loader) is no evidence that the context is
//     safe. An interface call given no context (a plugin's
//     UserStatus(id)) cannot use the one dropped, and does not count.
//
// A program analysed without its main package (a library of handlers)
// reports a deferred candidate only where a binding reaching I/O is seen,
// as dispatch reports its findings. Candidates with any other evidence
// (a path in the callee's fact, an opaque callee, a lock or transaction
// held at the call, a memory row) keep the rules above, and so do calls
// inside non-root functions, whose SIO002 travels in their paths.BlocksFact.

// deferDropped returns the deferred candidate of a root's item whose
// paths (resolveAt) are fs, or false when the item is decided here.
func (r *runner) deferDropped(s *paths.Summary, it paths.Item, fs []*paths.Finding) (join.Dropped, bool) {
	if r.thirdParty || it.Term == nil || it.Term.Rule != "SIO002" || it.Call == nil || it.Lock != "" || it.Tx != "" ||
		it.Term.Kind == knowledge.OpMemory || len(fs) != 1 || fs[0].Rule != "SIO002" || fs[0].Lock != "" || fs[0].Tx != "" {
		return join.Dropped{}, false
	}
	fn := typeutil.StaticCallee(r.pass.TypesInfo, it.Call)
	if fn == nil {
		return join.Dropped{}, false
	}
	ds := r.onlyDyn(fn.Origin())
	if len(ds) == 0 {
		return join.Dropped{}, false
	}
	site := r.site(it.Pos)
	dc := join.Dropped{Root: s.Name, Site: site, EndSite: r.endSite(it.End),
		Name: it.Term.Chain[0], Detail: it.Term.Detail, Hint: it.Term.Hint, Kind: it.Term.Kind}
	for _, d := range ds {
		dc.Dyn = append(dc.Dyn, d.Prepend(dc.Name, site, "", nil))
	}
	for _, fx := range r.rep.Fixes(s, it) {
		cf := join.Fix{Message: fx.Message}
		for _, e := range fx.TextEdits {
			cf.Edits = append(cf.Edits, join.Edit{Site: r.site(e.Pos), EndSite: r.site(e.End), NewText: string(e.NewText)})
		}
		dc.Fixes = append(dc.Fixes, cf)
	}
	return dc, true
}

// onlyDyn returns the interface calls of fn when they are its only
// evidence of I/O: no path, nothing opaque, at least one call made
// outside the dependencies (paths.OwnDyn), and results that cannot carry the
// context to I/O done later (carriesContext). It returns nil otherwise,
// and for the standard library, the table's rows and request roots,
// which keep the signature rule (factlessIdle).
func (r *runner) onlyDyn(fn *types.Func) []paths.DynCall {
	if fn.Pkg() == nil || knowledge.StdPath(fn.Pkg().Path()) || r.memoryRow(fn) {
		return nil
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || resultsCarryContext(sig) {
		return nil
	}
	if fn.Pkg() == r.pass.Pkg {
		s := r.byFunc[fn]
		if s == nil || s.Root != resolve.NotRoot || s.Result != nil || s.Opaque || (s.MemOpaque && !r.memoryIdle()) || !paths.OwnDyn(s.Dyn) {
			return nil
		}
		return s.Dyn
	}
	if _, ok := r.cfg.Blocking[knowledge.Qualified(fn, fn.Pkg().Path())]; ok {
		return nil
	}
	if r.cfg.isRoot(fn) {
		return nil
	}
	var f paths.BlocksFact
	if !r.pass.ImportObjectFact(fn, &f) || len(f.Chain) > 0 || len(f.More) > 0 || f.Opaque ||
		(f.OpaqueMemory && !r.memoryIdle()) || !paths.OwnDyn(f.Dyn) {
		return nil
	}
	return f.Dyn
}

// resultsCarryContext reports whether a result of sig may hold a context:
// an interface other than error, a func, a type parameter, or a struct,
// pointer, slice, array, map or channel of one (a builder's *gorm.DB
// holds its Statement's Context). plainResults is the stricter test of
// factlessIdle, where no fact says what the callee does.
func resultsCarryContext(sig *types.Signature) bool {
	seen := map[types.Type]bool{}
	var carries func(t types.Type) bool
	carries = func(t types.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if named.IsError(t) {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return false
		case *types.Pointer:
			return carries(u.Elem())
		case *types.Slice:
			return carries(u.Elem())
		case *types.Array:
			return carries(u.Elem())
		case *types.Chan:
			return carries(u.Elem())
		case *types.Map:
			return carries(u.Key()) || carries(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if carries(u.Field(i).Type()) {
					return true
				}
			}
			return false
		}
		return true // interfaces, funcs, type parameters
	}
	for i := range sig.Results().Len() {
		if carries(sig.Results().At(i).Type()) {
			return true
		}
	}
	return false
}

// decideDropped decides a deferred candidate with the bindings b this
// package sees (see Deferred candidates above), reporting it when it
// leads to I/O. It returns the join.JoinedFact key of a report.
func (r *scanned) decideDropped(dc join.Dropped, b *paths.Bindings, reported map[string]bool) (string, bool) {
	f := &paths.Finding{Rule: "SIO002", Chain: []string{dc.Name}, Sites: []string{dc.Site}, Detail: dc.Detail, Hint: dc.Hint, Kind: dc.Kind}
	key := dc.Site + "|SIO002|" + f.Terminal()
	if reported[key] {
		return "", false
	}
	reaches := false
	for _, d := range dc.Dyn {
		b.Start(join.MaxWork, join.MaxArgWork)
		if fs := r.walk(b).Dispatch(d); len(fs) > 0 || b.Opaque {
			reaches = true
			break
		}
	}
	if !reaches && (!r.programMain() || !unbound(dc, b)) {
		return "", false
	}
	pos := r.sitePos(dc.Site)
	if !pos.IsValid() {
		return "", false
	}
	end := r.sitePos(dc.EndSite)
	if !end.IsValid() || end < pos {
		end = token.NoPos
	}
	f.Poses = []token.Pos{pos}
	r.rep.Report(&paths.Summary{Name: dc.Root}, paths.Item{Pos: pos, End: end, Fixes: r.placeFixes(dc.Fixes)}, []*paths.Finding{f})
	return key, true
}

// placeFixes maps carried fixes into this pass's file set, keeping those
// whose every edit lands exactly on its site (a driver that knows the
// root's file by line only gets none).
func (r *pkgView) placeFixes(cfs []join.Fix) []analysis.SuggestedFix {
	var out []analysis.SuggestedFix
	exact := func(site string) token.Pos {
		pos := r.sitePos(site)
		if !pos.IsValid() || r.pass.Fset.Position(pos).String() != site {
			return token.NoPos
		}
		return pos
	}
next:
	for _, cf := range cfs {
		fx := analysis.SuggestedFix{Message: cf.Message}
		for _, e := range cf.Edits {
			pos, end := exact(e.Site), exact(e.EndSite)
			if !pos.IsValid() || !end.IsValid() {
				continue next
			}
			fx.TextEdits = append(fx.TextEdits, analysis.TextEdit{Pos: pos, End: end, NewText: []byte(e.NewText)})
		}
		out = append(out, fx)
	}
	return out
}

// unbound reports whether some context-taking interface call of dc made
// outside the dependencies has no binding in what b indexes: no concrete
// type converted to its interface or to one flowing into it, no func
// stored in its slot.
func unbound(dc join.Dropped, b *paths.Bindings) bool {
	for _, d := range dc.Dyn {
		if d.Dep || !d.Ctx {
			continue
		}
		any := false
		for iface := range b.Reaching(d.Iface) {
			if b.Bound[iface] {
				any = true
				break
			}
		}
		if !any {
			return true
		}
	}
	return false
}

// programMain reports whether the package is a program's main package,
// above which no binding can come. The main package go test generates
// for a package's tests (path "….test", file _testmain.go), which the
// standalone checker loads with its -test default, is not: it imports
// the package under test and its dependencies, not the program's wiring,
// and deciding there reported every deferred candidate of answer's
// middleware as unbound.
func (r *pkgView) programMain() bool {
	if r.pass.Pkg.Name() != "main" || strings.HasSuffix(r.pass.Pkg.Path(), ".test") {
		return false
	}
	for _, f := range r.pass.Files {
		if tf := r.pass.Fset.File(f.Pos()); tf != nil && filepath.Base(tf.Name()) == "_testmain.go" {
			return false
		}
	}
	return true
}
