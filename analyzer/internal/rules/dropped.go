package rules

import (
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/syncio/syncio/analyzer/internal/dataflow"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/resolve"
)

// SIO002 dropped-context: a call that takes a context is given one the
// request cannot cancel (context.Background(), a detached one, gin's
// *gin.Context under its defaults). Where the context comes from is
// dataflow.Ctx's; whether the callee can block with it is decided here:
// at the call (Contexts.Call, factlessIdle), at the root's call once the
// package's summaries are known (IdleDropped: an idle callee of the same
// package is silent), and at the join for a callee whose only evidence of
// I/O is interface calls (Defer, Decide).

// Contexts is SIO002 for one package: what the analyzer alone knows of
// it, handed in as values (the facts of other packages, the
// configuration's roots and rows), and what its pre-passes found (which
// functions never read their context, which memory rows' packages are
// handed context-taking callbacks). The package's summaries, known only
// after the fixpoint, are handed to the methods that read them.
type Contexts struct {
	p     *Pkg
	types *types.Package
	fset  *token.FileSet
	// Fact reads the paths.BlocksFact of another package's function.
	Fact func(*types.Func) (paths.BlocksFact, bool)
	// Root says whether the configuration makes fn a request root
	// (which exports no fact whatever it does).
	Root func(*types.Func) bool
	// Row says whether key is a blocking row (Config.Blocking).
	Row func(key string) bool
	// Memory are the memory rows (Config.Memory).
	Memory map[string]bool
	// SitePos places a "file:line:col" site in this pass's file set.
	SitePos func(site string) token.Pos

	// unused are this package's functions that never read their context
	// parameter (ScanUse).
	unused map[*types.Func]bool
	// callbacks are the memory rows' packages the program, as far as
	// this package sees, hands a function taking a context
	// (ScanCallbacks).
	callbacks map[string]bool
}

// NewContexts is SIO002 for the package p describes, whose types are pkg
// and positions fset's; the caller fills the exported fields.
func (p *Pkg) NewContexts(pkg *types.Package, fset *token.FileSet) *Contexts {
	return &Contexts{p: p, types: pkg, fset: fset}
}

// Call reports a call whose first argument is a context the request
// cannot cancel. The rule's fixes need the argument (FixArg); for a
// framework value (gin's c) rest is what the call leads to otherwise,
// kept as the item's Also.
func (c *Contexts) Call(call *ast.CallExpr, sig *types.Signature, fn *types.Func, flow *dataflow.Ctx, mk func(rule, name, detail, hint string) paths.Item, rest func() (paths.Item, bool)) (paths.Item, bool) {
	if sig != nil && sig.Params().Len() > 0 && len(call.Args) > 0 &&
		named.IsContext(sig.Params().At(0).Type()) &&
		(fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != knowledge.PathContext) &&
		(!c.p.ThirdParty || fn != nil) {
		if ci := flow.Classify(call.Args[0]); ci.Class == dataflow.CtxDropped && !c.factlessIdle(fn) && !c.ignoresContext(fn, sig) {
			memory := c.MemoryRow(fn)
			if memory && c.MemoryIdle() {
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
				it.Term.Gin = dataflow.GinDependent(ci.Desc)
				// Passing c is everywhere in gin services, and the callee's own
				// blocking (a ctx-less query, a sleep) is a problem of its own.
				if rest, ok := rest(); ok {
					it.Also = &rest
				}
				return it, true
			}
			it := mk("SIO002", name, "is given "+given+" instead of the request context", hint)
			if memory {
				it.Term.Kind = knowledge.OpMemory
			}
			// A context derived from c (context.WithValue(c, …)) is
			// cancelled with the request exactly when c is.
			it.Term.Gin = dataflow.GinDependent(ci.Desc)
			if call, ok := arg.(*ast.CallExpr); ok && (ci.Desc == "context.Background()" || ci.Desc == "context.TODO()") {
				it.FixArg = call
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
// methods and func values; the same package's callees are judged at the
// root's call (IdleDropped), once their summaries are known. A callee that
// returns anything but basic values and errors may return the context
// inside it (plainResults), and is never idle.
func (c *Contexts) factlessIdle(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg() == c.types || knowledge.StdPath(fn.Pkg().Path()) || !plainResults(fn) {
		return false
	}
	if c.Row(knowledge.Qualified(fn, fn.Pkg().Path())) {
		return false
	}
	// A request root exports no fact whatever it does (a gRPC method
	// called with context.Background()).
	if c.Root(fn) {
		return false
	}
	f, ok := c.Fact(fn)
	if !ok {
		return true
	}
	// A fact holding only interface calls made inside dependencies
	// (paths.DynCall.Dep) is no evidence of I/O, as when they were not kept;
	// nor is a context handed only to a memory row's library that the
	// program gives no context-taking callback (MemoryIdle).
	memoryBusy := f.OpaqueMemory && !c.MemoryIdle()
	return len(f.Chain) == 0 && len(f.More) == 0 && !f.Opaque && !memoryBusy && !paths.OwnDyn(f.Dyn)
}

// Callees that never read their context. A function of the module whose
// context parameter (the first) is unnamed, "_", or never referenced in
// its body cannot hand the context it is given to anything: not to a
// call, a closure, a field or a result. Whatever it blocks on, it does
// with a context of its own (apache/answer's GetAIProvider(ctx) does its
// reads with context.TODO()), which is reported at the same call as a
// path of its own; the call's SIO002 would suggest a fix that changes
// nothing. So does one that only reads values from it (ctx.Value(key):
// a dependency container's FromContext(ctx), the signed-in user): what it
// returns is the value, not the context. Any other reference keeps the
// finding, even one that cannot carry the context (ctx.Err(), a log
// line): the test is syntactic, not a flow analysis. Only the module's code is judged so (not a
// dependency's, not the standard library, which has no body here), and
// only a static callee: an interface method or func value may be bound
// to a function that does read it.

// ignoresContext reports whether the call's static callee fn, of this
// module, never reads the context parameter the call gives a dropped
// context: from ScanUse for this package, from its paths.BlocksFact
// (CtxUnused) for another (a callee with no fact is factlessIdle).
func (c *Contexts) ignoresContext(fn *types.Func, sig *types.Signature) bool {
	if fn == nil || fn.Pkg() == nil || c.p.ThirdParty {
		return false
	}
	fn = fn.Origin()
	// A method expression's signature has the receiver first: its first
	// argument is not the method's context parameter.
	if own, _ := fn.Type().(*types.Signature); own == nil || sig == nil || own.Params().Len() != sig.Params().Len() {
		return false
	}
	if fn.Pkg() == c.types {
		return c.unused[fn]
	}
	f, ok := c.Fact(fn)
	return ok && f.CtxUnused
}

// ScanUse records the functions of this package (funcs, its declarations
// with bodies), module code, whose first parameter is a context.Context
// never referenced in their body, or referenced only to read a value
// from it, ctx.Value(key) (Unused).
func (c *Contexts) ScanUse(funcs iter.Seq2[*ast.FuncDecl, *types.Func]) {
	c.unused = map[*types.Func]bool{}
	if c.p.ThirdParty {
		return
	}
	// Uses of each variable, and those that only read a value from it
	// (ctx.Value(key)): a function that reads request-scoped values (a
	// dependency container, the user) from its context hands the context
	// itself to nothing.
	used := map[*types.Var]int{}
	for _, obj := range c.p.Info.Uses {
		if v, ok := obj.(*types.Var); ok && !v.IsField() {
			used[v]++
		}
	}
	for fd, fn := range funcs {
		sig, _ := fn.Type().(*types.Signature)
		if sig == nil || sig.Params().Len() == 0 || !named.IsContext(sig.Params().At(0).Type()) {
			continue
		}
		p := sig.Params().At(0)
		if p.Name() == "" || p.Name() == "_" || used[p] == 0 || used[p] == valueReads(c.p.Info, fd.Body, p) {
			c.unused[fn] = true
		}
	}
}

// valueReads counts the references to v in body that call v.Value.
func valueReads(info *types.Info, body *ast.BlockStmt, v *types.Var) int {
	n := 0
	if body == nil {
		return 0
	}
	ast.Inspect(body, func(node ast.Node) bool {
		call, ok := node.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Value" {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == v {
				n++
			}
		}
		return true
	})
	return n
}

// Unused reports whether fn, of this package, never reads its context
// parameter: its fact says so (paths.BlocksFact.CtxUnused).
func (c *Contexts) Unused(fn *types.Func) bool { return c.unused[fn] }

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

// IdleDropped reports an SIO002 item whose callee, of this package, shows
// no I/O in its summary (byFunc), hands the context to nothing unseen and
// returns only plain values: the context reaches nothing that blocks
// (factlessIdle is the same for other packages). A join's worker that
// only selects on its ctx.Done() (opaque) is still idle work for
// joinBlocks.
func (c *Contexts) IdleDropped(it paths.Item, byFunc map[*types.Func]*paths.Summary) bool {
	if it.Term.Rule != "SIO002" || !c.IdleCallee(it, byFunc) {
		return false
	}
	fn := typeutil.StaticCallee(c.p.Info, it.Call)
	return !byFunc[fn.Origin()].Opaque && plainResults(fn)
}

// IdleCallee reports whether a SIO002 operation calls a function of this
// package whose summary (byFunc) shows no I/O: the context it drops
// reaches nothing.
func (c *Contexts) IdleCallee(it paths.Item, byFunc map[*types.Func]*paths.Summary) bool {
	if it.Term == nil || it.Call == nil {
		return false
	}
	fn := typeutil.StaticCallee(c.p.Info, it.Call)
	if fn == nil || fn.Pkg() != c.types {
		return false
	}
	s := byFunc[fn.Origin()]
	return s != nil && s.Root == resolve.NotRoot && s.Result == nil && !paths.OwnDyn(s.Dyn)
}

// OpaqueItem reports whether an item passes a context to a call the
// analysis cannot follow, itself or through its callee (byFunc for this
// package's).
func (c *Contexts) OpaqueItem(it paths.Item, byFunc map[*types.Func]*paths.Summary) bool {
	switch {
	case it.Opaque:
		return true
	case it.Ext != nil:
		return it.Ext.Opaque || (it.Ext.OpaqueMemory && !c.MemoryIdle())
	case it.Local != nil:
		callee := byFunc[it.Local]
		return callee != nil && callee.Root == resolve.NotRoot && (callee.Opaque || (callee.MemOpaque && !c.MemoryIdle()))
	}
	return false
}

// MemOpaqueItem reports whether an item hands a context to a memory row's
// function, itself or through its callee (paths.BlocksFact.OpaqueMemory).
func MemOpaqueItem(it paths.Item, byFunc map[*types.Func]*paths.Summary) bool {
	switch {
	case it.Ext != nil:
		return it.Ext.OpaqueMemory
	case it.Local != nil:
		callee := byFunc[it.Local]
		return callee != nil && callee.Root == resolve.NotRoot && callee.MemOpaque
	}
	return false
}

// Memory rows (knowledge.KindMemory): a function of an in-memory library
// that takes a context and does no I/O with it, handing it only to the
// func values kept by the library (go-playground/validator's StructCtx and
// the validation funcs). The analysis cannot follow those func values, so
// the function is opaque, and before the rows every Struct call (which
// gives StructCtx context.Background()) was a SIO002 on every request
// path. Whether the context can reach I/O depends on what the program
// registers, which a dependency's pass cannot see: there the operation is
// kept, marked OpMemory, and the program drops it (MemoryIdle) unless it
// hands one of the rows' packages a function that takes a context
// (ScanCallbacks: RegisterValidationCtx(tag, fn) keeps the finding; a Func
// given to RegisterValidation, which never sees the context, does not).

// CtxCallbackFact lists the memory rows' packages that a package hands a
// function taking a context (a callback the library may give the context
// it was given).
type CtxCallbackFact struct{ Pkgs []string }

// AFact marks CtxCallbackFact as a package fact.
func (*CtxCallbackFact) AFact() {}

// String is the fact as the tests' // want lines state it.
func (f *CtxCallbackFact) String() string { return "ctxcallbacks(" + strings.Join(f.Pkgs, ",") + ")" }

// importPath is path without a GOPATH vendor directory's prefix, the path
// the rows name.
func importPath(path string) string {
	if i := strings.LastIndex(path, "/vendor/"); i >= 0 {
		return path[i+len("/vendor/"):]
	}
	return path
}

// MemoryRow reports whether fn is a memory row's function.
func (c *Contexts) MemoryRow(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || len(c.Memory) == 0 {
		return false
	}
	return c.Memory[knowledge.Qualified(fn.Origin(), importPath(fn.Pkg().Path()))]
}

// MemoryIdle reports whether a dropped context given to a memory row's
// function reaches nothing here: the program's passes decide, once they
// know the callbacks (a dependency's pass keeps the operation, marked).
func (c *Contexts) MemoryIdle() bool {
	return !c.p.ThirdParty && len(c.callbacks) == 0
}

// ScanCallbacks records the memory rows' packages that this package, or
// one it imports (below, the package facts of the packages below), hands
// a function taking a context: an argument of a func type with a
// context.Context parameter to a function of that package. It returns
// the fact to export, nil when this package hands none.
func (c *Contexts) ScanCallbacks(files []*ast.File, below []analysis.Fact) *CtxCallbackFact {
	c.callbacks = map[string]bool{}
	if c.p.ThirdParty || len(c.Memory) == 0 {
		return nil
	}
	for _, fact := range below {
		if f, ok := fact.(*CtxCallbackFact); ok {
			for _, p := range f.Pkgs {
				c.callbacks[p] = true
			}
		}
	}
	pkgs := map[string]bool{}
	for k := range c.Memory {
		pkgs[resolve.SlotPkg(k)] = true
	}
	info := c.p.Info
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
				if sig, ok := info.TypeOf(a).Underlying().(*types.Signature); ok && TakesContext(sig) {
					own[importPath(fn.Pkg().Path())] = true
				}
			}
			return true
		})
	}
	if len(own) == 0 {
		return nil
	}
	ps := slices.Sorted(maps.Keys(own))
	for _, p := range ps {
		c.callbacks[p] = true
	}
	return &CtxCallbackFact{Pkgs: ps}
}

// TakesContext reports whether sig has a context.Context parameter.
func TakesContext(sig *types.Signature) bool {
	for i := range sig.Params().Len() {
		if named.IsContext(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

// DropMemory returns f without its SIO002 operations marked OpMemory (a
// context handed to an in-memory library) when the program registers no
// callback that could use it (MemoryIdle); f itself otherwise. The
// remaining paths keep their order, the first becoming the main one.
func (c *Contexts) DropMemory(f *paths.BlocksFact) *paths.BlocksFact {
	if !c.MemoryIdle() {
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
// root's package: it travels up in the join's PendingFact (Dropped, with
// the callee's interface calls seen from the root) and each join decides
// it with the bindings it sees (Decide):
//
//   - reported, once (the join's JoinedFact), at the root's call with the
//     same message and the root's suggested fix, carried by site (Fix),
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

// Dropped is a deferred SIO002 candidate at a root's call.
type Dropped struct {
	Root    string // the root's display name
	Site    string // the root's call, "file:line:col"
	EndSite string
	// Name, Detail and Hint are the candidate's finding (the callee, "is
	// given … instead of the request context", the fix to make).
	Name, Detail, Hint string
	Kind               knowledge.OpKind
	// Dyn are the callee's interface calls, seen from the root's call.
	Dyn []paths.DynCall
	// Fixes are the root's suggested fixes, their edits by site: the
	// join's pass maps them back, and drops a fix whose edits it cannot
	// place exactly.
	Fixes []Fix
}

// Fix is a suggested fix made in another package's pass.
type Fix struct {
	Message string
	Edits   []Edit
}

// Edit is one edit of a Fix, placed by site.
type Edit struct {
	Site, EndSite string
	NewText       string
}

// Defer returns the deferred candidate of a root's item whose paths are
// fs, or false when the item is decided here. byFunc are the package's
// summaries, and fixes makes the root's suggested fixes (the reporter's).
func (c *Contexts) Defer(s *paths.Summary, it paths.Item, fs []*paths.Finding, byFunc map[*types.Func]*paths.Summary,
	fixes func(*paths.Summary, paths.Item) []analysis.SuggestedFix) (Dropped, bool) {
	if c.p.ThirdParty || it.Term == nil || it.Term.Rule != "SIO002" || it.Call == nil || it.Lock != "" || it.Tx != "" ||
		it.Term.Kind == knowledge.OpMemory || len(fs) != 1 || fs[0].Rule != "SIO002" || fs[0].Lock != "" || fs[0].Tx != "" {
		return Dropped{}, false
	}
	fn := typeutil.StaticCallee(c.p.Info, it.Call)
	if fn == nil {
		return Dropped{}, false
	}
	ds := c.onlyDyn(fn.Origin(), byFunc)
	if len(ds) == 0 {
		return Dropped{}, false
	}
	site := c.p.Site(it.Pos)
	end := ""
	if it.End.IsValid() {
		end = c.p.Site(it.End)
	}
	dc := Dropped{Root: s.Name, Site: site, EndSite: end,
		Name: it.Term.Chain[0], Detail: it.Term.Detail, Hint: it.Term.Hint, Kind: it.Term.Kind}
	for _, d := range ds {
		dc.Dyn = append(dc.Dyn, d.Prepend(dc.Name, site, "", nil))
	}
	for _, fx := range fixes(s, it) {
		cf := Fix{Message: fx.Message}
		for _, e := range fx.TextEdits {
			cf.Edits = append(cf.Edits, Edit{Site: c.p.Site(e.Pos), EndSite: c.p.Site(e.End), NewText: string(e.NewText)})
		}
		dc.Fixes = append(dc.Fixes, cf)
	}
	return dc, true
}

// onlyDyn returns the interface calls of fn when they are its only
// evidence of I/O: no path, nothing opaque, at least one call made
// outside the dependencies (paths.OwnDyn), and results that cannot carry the
// context to I/O done later (resultsCarryContext). It returns nil otherwise,
// and for the standard library, the table's rows and request roots,
// which keep the signature rule (factlessIdle).
func (c *Contexts) onlyDyn(fn *types.Func, byFunc map[*types.Func]*paths.Summary) []paths.DynCall {
	if fn.Pkg() == nil || knowledge.StdPath(fn.Pkg().Path()) || c.MemoryRow(fn) {
		return nil
	}
	if sig, _ := fn.Type().(*types.Signature); sig == nil || resultsCarryContext(sig) {
		return nil
	}
	if fn.Pkg() == c.types {
		s := byFunc[fn]
		if s == nil || s.Root != resolve.NotRoot || s.Result != nil || s.Opaque || (s.MemOpaque && !c.MemoryIdle()) || !paths.OwnDyn(s.Dyn) {
			return nil
		}
		return s.Dyn
	}
	if c.Row(knowledge.Qualified(fn, fn.Pkg().Path())) {
		return nil
	}
	if c.Root(fn) {
		return nil
	}
	f, ok := c.Fact(fn)
	if !ok || len(f.Chain) > 0 || len(f.More) > 0 || f.Opaque ||
		(f.OpaqueMemory && !c.MemoryIdle()) || !paths.OwnDyn(f.Dyn) {
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

// Decide decides a deferred candidate with the bindings b this package
// sees (see Deferred candidates above), reporting it with report when it
// leads to I/O. dispatch follows one of the candidate's interface calls
// through b (the join's walk, within its bounds): the paths it reaches,
// and whether it handed the context to something unseen. Decide returns
// the join's JoinedFact key of a report.
func (c *Contexts) Decide(dc Dropped, b *paths.Bindings, reported map[string]bool,
	dispatch func(paths.DynCall) (fs []*paths.Finding, opaque bool),
	report func(*paths.Summary, paths.Item, []*paths.Finding)) (string, bool) {
	f := &paths.Finding{Rule: "SIO002", Chain: []string{dc.Name}, Sites: []string{dc.Site}, Detail: dc.Detail, Hint: dc.Hint, Kind: dc.Kind}
	key := dc.Site + "|SIO002|" + f.Terminal()
	if reported[key] {
		return "", false
	}
	reaches := false
	for _, d := range dc.Dyn {
		if fs, opaque := dispatch(d); len(fs) > 0 || opaque {
			reaches = true
			break
		}
	}
	if !reaches && (!c.programMain() || !unbound(dc, b)) {
		return "", false
	}
	pos := c.SitePos(dc.Site)
	if !pos.IsValid() {
		return "", false
	}
	end := c.SitePos(dc.EndSite)
	if !end.IsValid() || end < pos {
		end = token.NoPos
	}
	f.Poses = []token.Pos{pos}
	report(&paths.Summary{Name: dc.Root}, paths.Item{Pos: pos, End: end, Fixes: c.placeFixes(dc.Fixes)}, []*paths.Finding{f})
	return key, true
}

// placeFixes maps carried fixes into this pass's file set, keeping those
// whose every edit lands exactly on its site (a driver that knows the
// root's file by line only gets none).
func (c *Contexts) placeFixes(cfs []Fix) []analysis.SuggestedFix {
	var out []analysis.SuggestedFix
	exact := func(site string) token.Pos {
		pos := c.SitePos(site)
		if !pos.IsValid() || c.fset.Position(pos).String() != site {
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
func unbound(dc Dropped, b *paths.Bindings) bool {
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
func (c *Contexts) programMain() bool {
	if c.types.Name() != "main" || strings.HasSuffix(c.p.Path, ".test") {
		return false
	}
	for _, f := range c.p.Files {
		if tf := c.fset.File(f.Pos()); tf != nil && filepath.Base(tf.Name()) == "_testmain.go" {
			return false
		}
	}
	return true
}
