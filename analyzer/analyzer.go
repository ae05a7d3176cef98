package analyzer

import (
	"fmt"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/named"
	"github.com/syncio/syncio/analyzer/internal/regions"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/seen"
)

// Name is the analyzer's name, as used by drivers and golangci-lint.
const Name = "syncio"

const doc = `report blocking I/O and uncancellable waits on HTTP request paths

syncio finds request roots (net/http, gin, echo, fiber and gRPC handlers and
functions marked //syncio:handler) and reports calls on their paths that block
without the request's context (SIO001), drop the request context (SIO002),
hold a mutex across I/O (SIO003), build clients or pools per request
(SIO004), wait with no ctx.Done() escape (SIO005), do file I/O (SIO006,
opt-in) or hold a database transaction across a remote call (SIO007). Helpers are followed across packages through facts; a finding is
reported at the root's call with the chain. Suppress with
//syncio:ignore SIO00N -- reason; ignores that hide nothing are reported.`

// Analyzer is the syncio analyzer with the default configuration.
var Analyzer = New(DefaultConfig())

// New returns a syncio analyzer for cfg. The returned analyzer owns a copy
// of cfg, which its flags (-rules) may change before it runs.
func New(cfg Config) *analysis.Analyzer {
	c := cfg.clone()
	a := &analysis.Analyzer{
		Name: Name,
		Doc:  doc,
		URL:  "https://github.com/syncio/syncio/blob/main/docs/rules/",
		// No Requires: bodies are walked with ast.Inspect, and an
		// inspect.Analyzer dependency would build an inspector for every
		// package in the graph, the standard library included.
		FactTypes: []analysis.Fact{new(blocksFact), new(resolve.CallsFact), new(resolve.AdapterFact), new(pendingFact), new(convFact), new(joinedFact), new(attachFact), new(registrarFact), new(resolve.StoresFact), new(ctxCallbackFact), new(resolve.MemoFact), new(rootSlotsFact)},
		Run:       func(pass *analysis.Pass) (any, error) { return run(pass, c) },
		// What the run saw (roots, registrations) for the standalone
		// driver's roots line; other drivers drop it.
		ResultType: reflect.TypeOf((*seen.Package)(nil)),
	}
	registerFlags(&a.Flags, c)
	return a
}

// fnSummary is what one function body does, before callees are resolved.
type fnSummary struct {
	fn   *types.Func // nil for func literals
	name string      // display name of a root
	root resolve.RootKind
	// pos, how and framework describe a root for the roots report
	// (seen.Root): where it is, what made it a root, whose handler it is.
	pos            token.Pos
	how, framework string
	label          string // the root's name in the report, when name is the registering function's
	wraps          bool   // a literal that calls a handler it was given (resolve.Handlers.Wraps)
	// key and branch: seen.Root.Key and Branch (rootrefs.go).
	key     string
	branch  bool
	sig     *types.Signature
	items   []item
	ignores []*ignore // the doc comment's //syncio:ignore directives
	result  *finding  // set when a non-root function blocks
	// byRule are, for each rule the function leads to, the paths to its
	// distinct blocking operations (at most maxOps, in the order of
	// finding.better); result.more is filled from them once the fixpoint
	// is reached. byRule[""] is the best-ranked path to I/O that is no
	// finding by itself (see keepIO).
	byRule map[string][]*finding
	// ops are, per rule, every distinct operation (terminal) seen, and
	// least the most any one item said it leads to (its paths plus their
	// Over): the rule's count is the larger of the two, so operations
	// past maxOps are counted, not named.
	ops   map[string]map[string]bool
	least map[string]int
	// dyn are the interface calls on the function's paths (dispatch.go).
	dyn []dynCall
	// opaque: the function passes a context to a call the analysis cannot
	// follow, directly or through callees (see item.opaque).
	opaque bool
	// unfollowed: the first unresolved call through a func value the
	// function makes, directly or through callees (see item.unfollowed).
	unfollowed string
	// reported counts the diagnostics emitted at a root's calls.
	reported int
	// end is where the body ends, for the roots report.
	end token.Pos
	// memOpaque: it hands one only to memory rows' functions
	// (blocksFact.OpaqueMemory).
	memOpaque bool
}

// summary returns the function's result with the other paths attached
// (other rules', and other operations of each rule: maxTerminals per rule
// with their paths, up to maxOps named, and the count of the rest), or
// nil.
func (s *fnSummary) summary() *finding {
	if s.result == nil {
		return nil
	}
	f := *s.result
	f.more = nil
	f.over = 0
	rules := make([]string, 0, len(s.byRule))
	for rule := range s.byRule {
		rules = append(rules, rule)
	}
	sort.Strings(rules)
	if len(rules) > 0 && rules[0] == "" {
		// I/O last: keepIO looks at every rule's paths.
		rules = append(rules[1:], "")
	}
	main := f.terminal()
	for _, rule := range rules {
		n := 0
		if rule == f.rule {
			n = 1
		}
		var out []*finding
		for _, p := range s.byRule[rule] {
			if n >= maxOps {
				break
			}
			if rule == f.rule && p.terminal() == main {
				continue
			}
			if rule == "" && !keepIO(append([]*finding{&f}, f.more...), p) {
				continue
			}
			m := *p
			m.more = nil
			m.over = 0
			if n >= maxTerminals {
				m = *m.asRef()
			}
			out = append(out, &m)
			n++
		}
		if over := s.count(rule) - n; over > 0 {
			if len(out) > 0 {
				out[len(out)-1].over = over
			} else {
				f.over = over
			}
		}
		f.more = append(f.more, out...)
	}
	return &f
}

// count is the number of distinct operations of rule the function leads
// to: exact unless an item's own count was past its maxOps.
func (s *fnSummary) count(rule string) int {
	return max(len(s.ops[rule]), s.least[rule])
}

// addPaths records the paths of one item (fs, as resolveAt returns them)
// in byRule, ops and least. It reports whether any changed.
func (s *fnSummary) addPaths(fs []*finding) bool {
	changed := false
	for i, f := range fs {
		if f.rule == "" {
			// I/O that is no finding by itself: kept for keepIO, not
			// counted.
			if s.addPath(f) {
				changed = true
			}
			continue
		}
		if s.addPath(f) {
			changed = true
		}
		// The item's count for f's rule, once per rule (fs is short).
		first, n := true, 0
		for j, g := range fs {
			if g.rule == f.rule {
				if j < i {
					first = false
					break
				}
				n += 1 + g.over
			}
		}
		if first && n > s.least[f.rule] {
			if s.least == nil {
				s.least = map[string]int{}
			}
			s.least[f.rule] = n
			changed = true
		}
	}
	return changed
}

// keepIO reports whether the I/O path p (rule "") adds to paths what a
// caller needs: a lock or a transaction that no path has (a helper that
// holds a mutex across a query and also reads a file: with SIO006 on,
// the file read is the main path and the lock would be lost), or I/O that
// a caller's lock makes SIO003 when no path is lockable.
func keepIO(paths []*finding, p *finding) bool {
	lock, tx, lockablePath := false, false, false
	for _, q := range paths {
		lock = lock || q.lock != ""
		tx = tx || q.tx != ""
		lockablePath = lockablePath || lockable[q.rule]
	}
	return p.lock != "" && !lock || p.tx != "" && !tx || !lockablePath
}

// addPath records a path of f's rule: its operation in ops, and the path
// in byRule, kept in the order of finding.better (equals in the order
// found) and cut at maxOps; past maxTerminals only the operation is kept
// (finding.asRef), as the fact will. A better path to an operation already
// there replaces it, and so does a full path to one of the first
// maxTerminals known only by name. It reports whether anything changed.
func (s *fnSummary) addPath(f *finding) bool {
	if s.byRule == nil {
		s.byRule = map[string][]*finding{}
		s.ops = map[string]map[string]bool{}
	}
	list := s.byRule[f.rule]
	if f.rule == "" {
		// I/O that is no finding by itself: only the best-ranked path
		// (under a lock, across a transaction) is kept, for summary's
		// keepIO; it is no operation of a rule, so not in ops.
		if len(list) > 0 && f.rank() <= list[0].rank() {
			return false
		}
		s.byRule[""] = []*finding{f}
		return true
	}
	changed := false
	k := f.terminal()
	if s.ops[f.rule] == nil {
		s.ops[f.rule] = map[string]bool{}
	}
	if !s.ops[f.rule][k] {
		s.ops[f.rule][k] = true
		changed = true
	}
	for i, old := range list {
		if old.terminal() != k {
			continue
		}
		if !f.better(old) {
			if old.ref && !f.ref && i < maxTerminals && !old.better(f) {
				list[i] = f
				return true
			}
			return changed
		}
		list = append(list[:i:i], list[i+1:]...)
		break
	}
	if len(list) >= maxOps && !f.better(list[len(list)-1]) {
		s.byRule[f.rule] = list
		return changed
	}
	at := len(list)
	for i, old := range list {
		if f.better(old) {
			at = i
			break
		}
	}
	list = append(list[:at:at], append([]*finding{f}, list[at:]...)...)
	if len(list) > maxOps {
		list = list[:maxOps]
	}
	for i := maxTerminals; i < len(list); i++ {
		list[i] = list[i].asRef()
	}
	s.byRule[f.rule] = list
	return true
}

// item is one place in a body that may block: a blocking operation (term)
// or a call to a function that may block (local or ext).
type item struct {
	pos, end token.Pos
	call     *ast.CallExpr
	term     *finding    // direct blocking operation
	local    *types.Func // same-package callee
	ext      *blocksFact // other-package callee that blocks
	name     string      // callee display name for local/ext
	fixKey   string      // SIO001 table key, for suggested fixes
	fixArg   ast.Expr    // SIO002: context.Background()/TODO() argument to replace
	lock     string      // a mutex held at the item (SIO003), see regions.Lock
	recvOwn  callOwner   // how the call's receiver relates to the function (lockowner.go)
	tx       string      // a transaction open at the item (SIO007), see regions.Tx
	gormRoot ast.Expr    // SIO001 gorm or dbx chain: where .WithContext(ctx) goes
	dyn      *dynCall    // a call through an interface method (dispatch.go)
	// joined marks a join wait in a dependency module (joins.go): it
	// blocks only when the work in join does.
	joined bool
	join   []item
	// lit is a func literal of this package called through a value (a
	// local, a function's result, a package variable): its summary is in
	// runner.litSummaries.
	lit *ast.FuncLit
	// opaque marks a call given a context that the analysis cannot follow
	// (an interface method that is not dispatched, a func value): it may
	// do I/O with that context, so a function that makes it is no idle
	// callee for SIO002 (factlessIdle, idleCallee). It leads to nothing.
	opaque bool
	// also is what the same call leads to besides this item: the callee
	// of a call given a framework value as its context (SIO002 there does
	// not hide what the callee blocks on).
	also *item
	// merged marks an item whose paths come from several callees (the
	// bindings dispatch joins): their counts past maxOps may overlap.
	merged bool
	// unfollowed is the site of a call through a func value kept in a
	// field, a map or a package variable that nothing resolves (a
	// generic type's field, a closure chained through one): what runs
	// there is unseen. It leads to nothing; the roots report says so.
	unfollowed string
	// once marks an item that runs once per value or key, not per request
	// (memo.go): in a callback given to sync.(*Once).Do or a memoiser, or
	// in a memoiser's own body. onceRules do not count for it.
	once bool
	// fixes are suggested fixes made by another package's pass (a
	// deferred SIO002 candidate's, rule_dropped.go).
	fixes []analysis.SuggestedFix
}

type runner struct {
	pass    *analysis.Pass
	cfg     *Config
	dirs    *directives
	byFunc  map[*types.Func]*fnSummary
	assigns map[*ast.CallExpr]*ast.AssignStmt
	files   map[string]*token.File // lazily built, for cross-package sites
	src     map[string][]byte
	// thirdParty is set for packages of dependency modules (isThirdParty):
	// their channels are their own synchronisation, and a context they
	// drop into an interface method is not evidence of I/O.
	thirdParty bool
	// ctxCallbacks: the memory rows' packages the program, as far as
	// this package sees, hands a function taking a context
	// (rule_dropped.go).
	ctxCallbacks map[string]bool
	// ctxUnused: this package's functions that never read their context
	// parameter (rule_dropped.go).
	ctxUnused map[*types.Func]bool
	cb        *callbacks        // what is passed to adapters (callbacks.go)
	sync      *resolve.Sync     // parameters called on the spot, by fact (resolve)
	adapters  *resolve.Adapters // handler adapters, by fact (resolve)
	reg       *registered       // registration calls and their roots (registrations.go)
	handlers  *resolve.Handlers // follows handler values to functions
	memos     *resolve.Memos    // this package's memoisers, by fact (resolve)
	// emitted are the (site, rule) pairs reported so far: dispatch does
	// not report a root's call again for a rule its static path showed.
	emitted map[string]bool
	// ginFallback: a *gin.Context is the request's context here (the
	// configuration says so, or this package sets ContextWithFallback).
	ginFallback bool
	// semChans are the channels this package uses as semaphores (see
	// semaphoreChan); nil until first asked.
	semChans map[types.Object]bool
	// Stored func values (stored.go): the package's slots, its stores
	// and the parameters its functions store, and the summaries of the
	// literals it stores.
	slots        *resolve.Slots
	stored       *resolve.Stored
	litSummaries map[*ast.FuncLit]*fnSummary
	// argLits are the literals passed to interface methods
	// (dyncallbacks.go), summarised with litSummaries.
	argLits []*ast.FuncLit
	// slotRoots are the functions the package stores into slots that
	// request roots below call (slotroots.go).
	slotRoots *slotRoots
}

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	r := &runner{
		pass:    pass,
		cfg:     cfg,
		byFunc:  map[*types.Func]*fnSummary{},
		assigns: map[*ast.CallExpr]*ast.AssignStmt{},
		src:     map[string][]byte{},
		emitted: map[string]bool{},

		litSummaries: map[*ast.FuncLit]*fnSummary{},
	}
	r.ginFallback = cfg.GinContextFallback || setsGinFallback(pass)
	if inGOROOT(pass) {
		// The standard library's blocking APIs are in the SIO001 table and
		// are judged at the caller; its internals (runtime channels and the
		// like) are not request paths and would make everything "block".
		return &seen.Package{Path: pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: []seen.Registration{}}, nil
	}
	r.thirdParty = isThirdParty(pass)
	var files []*ast.File
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); !cfg.Tests && tf != nil && strings.HasSuffix(tf.Name(), "_test.go") {
			continue // tests are rarely request paths; Config.Tests opts in
		}
		files = append(files, f)
	}
	r.dirs = newDirectives(pass.Fset, files)
	r.reportBadIgnores()
	r.slots = resolve.NewSlots(pass.TypesInfo, files)
	r.scanCallbacks(files)
	r.stored = resolve.NewStored(pass, r.slots)
	if !r.thirdParty {
		r.stored.Scan(files)
	}
	r.findSlotRoots(files)
	r.scanCtxCallbacks(files)
	r.scanCtxUse(files)
	r.exportAttaches(files)

	var decls, roots []*fnSummary
	rootLits := map[*ast.FuncLit]bool{}
	returned := returnedLits(pass.TypesInfo, files)
	// litRoots adds the handler literals under n (router arguments,
	// http.HandlerFunc conversions, …); they inherit the enclosing
	// function's doc-comment ignores.
	litRoots := func(n ast.Node, ignores []*ignore) {
		ast.Inspect(n, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			sig, _ := pass.TypesInfo.TypeOf(lit).(*types.Signature)
			k := resolve.SignatureRoot(sig)
			how, framework := seen.HowSignature, frameworkOf(k)
			if k == resolve.NotRoot {
				k = resolve.RootCustom
				regFW, registered := r.reg.lits[lit]
				slotFW, stored := r.slotRoots.lits[lit]
				switch {
				case r.patternRoot(sig):
					how, framework = seen.HowConfig, "custom"
				case r.cb.adaptedLits[lit]:
					how, framework = seen.HowAdapter, "custom"
				case registered:
					how, framework = seen.HowRegistration, regFW
				case stored:
					how, framework = seen.HowStored, slotFW
				default:
					k = resolve.NotRoot
				}
			}
			if k != resolve.NotRoot {
				rootLits[lit] = true
				s := &fnSummary{root: k, sig: sig, name: "func literal", ignores: ignores, pos: lit.Pos(), end: lit.End(), how: how, framework: framework,
					wraps: r.handlers.Wraps(lit)}
				if fn := returned[lit]; fn != nil {
					markBranch(s, nil, retKey(fn))
				}
				s.items = r.collect(sig, lit.Body)
				roots = append(roots, s)
			}
			return true
		})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				litRoots(d, nil)
				continue
			}
			if fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			s := &fnSummary{fn: fn, root: resolve.DeclRoot(fn, r.dirs.handler(fd.Doc)), ignores: r.dirs.funcIgnores(fd.Doc), name: declName(fd, fn), pos: fd.Name.Pos(), end: fd.End()}
			s.how, s.framework = seen.HowSignature, frameworkOf(s.root)
			if s.root == resolve.RootCustom {
				s.how = seen.HowDirective
			}
			if fn != nil {
				s.sig, _ = fn.Type().(*types.Signature)
				if s.root == resolve.NotRoot {
					s.root = resolve.RootCustom
					regFW, registered := r.reg.funcs[fn]
					slotFW, stored := r.slotRoots.funcs[fn]
					switch {
					case r.configRoot(fn, s.sig):
						s.how = seen.HowConfig
					case r.cb.adapted[fn]:
						s.how = seen.HowAdapter
					case registered:
						s.how, s.framework = seen.HowRegistration, regFW
					case stored:
						s.how, s.framework = seen.HowStored, slotFW
					default:
						s.root = resolve.NotRoot
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
			decls = append(decls, s)
			if s.root != resolve.NotRoot {
				if fn != nil {
					markBranch(s, fn, refKey(fn))
				}
				roots = append(roots, s)
			}
			litRoots(fd.Body, s.ignores)
		}
	}

	// Other packages' functions handed to an adapter here are roots too;
	// their facts say what they do.
	for _, ref := range r.cb.adaptedExt {
		if it, ok := r.refItem(ref.fn, ref.pos, ref.end, nil); ok {
			s := &fnSummary{root: resolve.RootCustom, name: ref.in, ignores: ref.ignores, items: []item{it},
				pos: ref.pos, how: ref.how, framework: ref.framework, label: displayName(ref.fn)}
			markBranch(s, ref.fn, refKey(ref.fn))
			roots = append(roots, s)
		}
	}

	// The literals the package stores into slots, or calls through a
	// value, are summarised like its functions.
	decls = append(decls, r.laterLits(files, rootLits)...)
	// So are those passed to interface methods: a binding may call them.
	decls = append(decls, r.argLitSummaries(rootLits)...)

	// Fixpoint over the package's call graph: a function's summary is its
	// highest-ranked item, plus the highest-ranked path of every other
	// rule. Ranks only grow and are bounded, and there are few rules, so
	// it terminates, recursion included.
	for changed := true; changed; {
		changed = false
		for _, s := range decls {
			if s.root != resolve.NotRoot {
				continue
			}
			for _, it := range s.items {
				if s.addDyn(r.dynOf(s, it)) {
					changed = true
				}
				if !s.opaque && r.opaqueItem(it) {
					s.opaque = true
					changed = true
				}
				if s.unfollowed == "" {
					if u := r.unfollowedItem(it); u != "" {
						s.unfollowed = u
						changed = true
					}
				}
				if !s.memOpaque && r.memOpaqueItem(it) {
					s.memOpaque = true
					changed = true
				}
				fs := r.resolveAt(s, it)
				if len(fs) == 0 {
					continue
				}
				if f := fs[0]; s.result == nil || f.betterMain(s.result) {
					s.result = f
					changed = true
				}
				if s.addPaths(fs) {
					changed = true
				}
			}
		}
	}
	// The func arguments of interface calls are summarised now that every
	// summary is final.
	for _, s := range decls {
		s.dyn = r.sealArgs(s.dyn, 0)
	}
	for _, s := range decls {
		if s.root == resolve.NotRoot && (s.result != nil || len(s.dyn) > 0 || s.opaque || s.memOpaque || s.unfollowed != "") && s.fn != nil && !entryPoint(s.fn) &&
			!r.cfg.Allow[knowledge.Qualified(s.fn, s.fn.Pkg().Path())] {
			bf := &blocksFact{}
			if s.result != nil {
				bf = s.summary().fact()
			}
			bf.Dyn = s.dyn
			bf.Opaque = s.opaque
			bf.Unfollowed = s.unfollowed
			bf.OpaqueMemory = s.memOpaque && !s.opaque
			bf.CtxUnused = r.ctxUnused[s.fn]
			pass.ExportObjectFact(s.fn, bf)
		}
	}
	r.exportRootSlots(roots)
	var pending []pendingCall
	var dropped []droppedCall
	for _, s := range roots {
		for _, it := range s.items {
			fs := r.resolveAt(s, it)
			if dc, ok := r.deferDropped(s, it, fs); ok {
				// Decided where the bindings are seen (rule_dropped.go).
				dropped = append(dropped, dc)
			} else {
				r.report(s, it, fs)
			}
			if s.unfollowed == "" {
				s.unfollowed = r.unfollowedItem(it)
			}
		}
		if s.reported > 0 {
			// It reaches an operation: not blind. A finding that dispatch
			// reports in it later, from another package, clears it in the
			// driver (seen.Report.ClearReached).
			s.unfollowed = ""
		}
		if !r.thirdParty {
			// A dependency's own roots (a library's middleware) would be
			// reported in the dependency's files: not followed.
			pending = append(pending, r.pendingOf(s)...)
		}
	}
	r.join(pending, dropped, append(r.recordConversions(files), r.recordStores()...))
	r.reportStale(decls)
	res := r.seenResult(roots)
	if !r.thirdParty {
		res.Refs = r.rootRefs(files, roots)
	}
	r.reportBlind(res)
	return res, nil
}

// inGOROOT reports whether the package is part of the Go distribution.
func inGOROOT(pass *analysis.Pass) bool {
	root := build.Default.GOROOT
	if root == "" {
		return false
	}
	prefix := filepath.Join(root, "src") + string(filepath.Separator)
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.Pos()); tf != nil && strings.HasPrefix(tf.Name(), prefix) {
			return true
		}
	}
	return false
}

// isThirdParty reports whether the package belongs to a dependency rather
// than to the code under analysis. Every driver (checker, go vet's
// unitchecker, golangci-lint) fills pass.Module from go list: the main and
// workspace modules have no version, a dependency has one whether it is
// read from the module cache or from vendor/ (modules.txt), and whatever
// GOMODCACHE or -mod say. A dependency replaced by a local directory is
// the user's own code in all but name, so it counts as first-party; go vet
// before Go 1.27 does not pass Replace, so there it counts as third-party.
// Without module information (GOPATH mode) the file paths decide.
func isThirdParty(pass *analysis.Pass) bool {
	if m := pass.Module; m != nil && m.Path != "" {
		if m.Main || (m.Replace != nil && m.Replace.Version == "") {
			return false
		}
		return m.Version != ""
	}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := filepath.ToSlash(tf.Name())
		if strings.Contains(name, "/vendor/") {
			return true
		}
		if _, rest, ok := strings.Cut(name, "/pkg/mod/"); ok && strings.Contains(rest, "@") {
			return true
		}
	}
	return false
}

// entryPoint reports whether fn is main.main or an init function: nothing
// calls them, so they export no fact.
func entryPoint(fn *types.Func) bool {
	if named.Recv(fn) != nil {
		return false
	}
	return fn.Name() == "init" || (fn.Name() == "main" && fn.Pkg() != nil && fn.Pkg().Name() == "main")
}

func (r *runner) suppressed(s *fnSummary, it item, rule string) bool {
	if it.once && onceRules[rule] {
		return true // once per process or key, not per request (memo.go)
	}
	return !r.cfg.ReportIgnored && (funcSuppressed(s.ignores, rule) || r.dirs.suppressed(it.pos, rule))
}

// report emits the diagnostics for a root's item: one per rule of the
// operations it leads to, and one for a lock held across them. Each is
// about the rule's first path; the rule's other distinct blocking
// operations (terminals) are listed in the same message ("also reaches"),
// so that every one is visible at once, in one diagnostic per rule.
func (r *runner) report(s *fnSummary, it item, fs []*finding) {
	type group struct {
		main *finding
		also []*finding
		seen map[string]bool
		over int // the most operations past those listed that one path counts (blocksFact.Over)
	}
	groups := map[string]*group{}
	var order []string
	add := func(rule string, f *finding) {
		g := groups[rule]
		if g == nil {
			g = &group{main: f, seen: map[string]bool{f.terminal(): true}}
			groups[rule] = g
			order = append(order, rule)
		} else if k := f.terminal(); !g.seen[k] {
			g.seen[k] = true
			g.also = append(g.also, f)
		}
		g.over = max(g.over, f.over)
	}
	for _, f := range fs {
		if f.rule != "" {
			add(f.rule, f)
		}
		if f.lock != "" {
			add("SIO003", f)
		}
		if f.tx != "" {
			add("SIO007", f)
		}
	}
	for _, rule := range order {
		g := groups[rule]
		site := r.site(it.pos)
		for _, f := range append([]*finding{g.main}, g.also...) {
			r.emitted[site+"|"+rule+"|"+f.terminal()] = true
		}
		// The count of what the message does not name: exact for one
		// callee's paths of one rule; a lower bound where a count past
		// maxOps meets other paths (dispatch over several bindings, a lock
		// or transaction across several rules' operations).
		more := moreOps{n: max(0, len(g.also)-(maxTerminals-1)), atLeast: g.over > 0}
		if g.over > 0 && !it.merged && rule != "SIO003" && rule != "SIO007" {
			more.n += g.over
		}
		if rule == "SIO003" {
			r.reportLock(s, it, g.main, g.also, more)
			continue
		}
		if rule == "SIO007" {
			detail := g.main.detail
			if detail == "" {
				detail = "does I/O"
			}
			r.emit(s, it, g.main, rule, detail+" while transaction "+g.main.tx+" is open", txHint, g.also, more)
			continue
		}
		r.emit(s, it, g.main, rule, g.main.detail, g.main.hint, g.also, more)
	}
}

// moreOps is what a message says of the operations it does not name:
// "and N more", or "and at least N more" when N is a lower bound.
type moreOps struct {
	n       int
	atLeast bool
}

func (m moreOps) String() string {
	switch {
	case m.atLeast && m.n == 0:
		return "and possibly more"
	case m.atLeast:
		return fmt.Sprintf("and at least %d more", m.n)
	case m.n > 0:
		return fmt.Sprintf("and %d more", m.n)
	}
	return ""
}

// reportLock emits the SIO003 diagnostic for a lock held across f (and
// across the operations of also).
func (r *runner) reportLock(s *fnSummary, it item, f *finding, also []*finding, more moreOps) {
	detail := f.detail
	if detail == "" {
		detail = "does I/O"
	}
	detail += " while " + lockName(f.lock) + " is held"
	hint := "every request that needs the lock queues behind this I/O, so requests are served one at a time; " +
		"release the lock before the call (copy what you need under it), or use a per-key lock or singleflight"
	if strings.Contains(f.lock, regions.ReadLocked) {
		hint = "readers still run together, but a writer waiting for the lock blocks every new reader behind this I/O; " +
			"release the lock before the call (copy what you need under it)"
	}
	r.emit(s, it, f, "SIO003", detail, hint, also, more)
}

// emit reports f under rule at the root's item; also are the paths to the
// rule's other blocking operations: the message names the first
// maxTerminals-1 after the hint and says how many more there are (more),
// and every one is attached as related information at its operation, so
// that -json and SARIF carry them all.
func (r *runner) emit(s *fnSummary, it item, f *finding, rule, detail, hint string, also []*finding, more moreOps) {
	s.reported++
	var msg string
	last := f.chain[len(f.chain)-1]
	if len(f.chain) == 1 {
		msg = last + " " + detail
	} else {
		msg = s.name + " calls " + strings.Join(f.chain, " → ") + ", which " + detail
	}
	msg += "; " + hint
	if len(also) > 0 || more.String() != "" {
		var others []string
		for i, a := range also {
			if i >= maxTerminals-1 {
				break
			}
			o := strings.Join(a.chain, " → ")
			if n := len(a.sites); n > 0 {
				o += " at " + shortSite(a.sites[n-1])
			}
			others = append(others, o)
		}
		if m := more.String(); m != "" && len(others) > 0 {
			others = append(others, m)
		} else if m != "" {
			// Only a count (past maxOps, nothing listed): "also reaches
			// 3 more operations".
			others = append(others, strings.TrimPrefix(m, "and ")+" operations")
		}
		msg += "; also reaches " + strings.Join(others, ", ")
	}
	msg += " (" + rule + ")"
	d := analysis.Diagnostic{
		Pos:      it.pos,
		End:      it.end,
		Category: rule,
		URL:      r.cfg.fixURL(rule),
		Message:  msg,
	}
	if len(f.chain) > 1 {
		for i, name := range f.chain {
			m := "calls " + name
			if i == len(f.chain)-1 {
				m = name + " " + detail
			}
			pos, site := token.NoPos, ""
			if i < len(f.poses) {
				pos = f.poses[i]
			}
			if i < len(f.sites) {
				site = f.sites[i]
			}
			// A driver that compiles one package at a time (go vet) knows
			// other packages' files by line only, or not at all: keep the
			// hop, at the finding when its file is unknown, with its exact
			// place in the message.
			if site != "" && (!pos.IsValid() || r.pass.Fset.Position(pos).String() != site) {
				m += " (at " + site + ")"
				if !pos.IsValid() {
					pos = it.pos
				}
			}
			if !pos.IsValid() {
				continue
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: pos, Message: m})
		}
	}
	for _, a := range also {
		if n := len(a.chain); n > 0 && n <= len(a.poses) && a.poses[n-1].IsValid() {
			detail := a.detail
			if detail == "" {
				detail = "does I/O"
			}
			msg := "also reaches " + a.chain[n-1]
			if !a.ref {
				msg += ", which " + detail
			}
			if rule == "SIO003" && a.lock != "" {
				msg += " while " + lockName(a.lock) + " is held"
			}
			if rule == "SIO007" && a.tx != "" {
				msg += " while transaction " + a.tx + " is open"
			}
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: a.poses[n-1], Message: msg})
		}
	}
	if it.term != nil && rule == it.term.rule && rule != "SIO003" && rule != "SIO007" {
		d.SuggestedFixes = r.fixes(s, it)
	}
	if it.fixes != nil && rule == "SIO002" {
		d.SuggestedFixes = it.fixes
	}
	r.pass.Report(d)
}

// shortSite is a "file:line:col" site with the file's base name.
func shortSite(site string) string {
	rest, col, ok1 := cutLast(site)
	file, line, ok2 := cutLast(rest)
	if !ok1 || !ok2 {
		return site
	}
	return filepath.Base(file) + ":" + line + ":" + col
}

// reportStale reports //syncio:ignore directives that hid nothing, once
// every item has been resolved. Items of helpers past the one that set the
// summary are resolved here too, because their ignores count as used.
func (r *runner) reportStale(decls []*fnSummary) {
	for _, s := range decls {
		if s.root != resolve.NotRoot {
			continue
		}
		for _, it := range s.items {
			r.resolveAt(s, it)
		}
	}
	for _, ig := range r.dirs.all {
		if ig.used || ig.bad || r.cfg.ReportIgnored {
			continue
		}
		judgeable := true
		for _, id := range ig.ids {
			if !r.cfg.enabled(id) {
				judgeable = false // a disabled rule reports nothing to hide
			}
		}
		if !judgeable {
			continue
		}
		rule := ig.ids[0]
		r.pass.Report(analysis.Diagnostic{
			Pos: ig.pos, End: ig.end, Category: rule, URL: r.cfg.suppressionURL(),
			Message: "stale syncio:ignore: no " + strings.Join(ig.ids, "/") + " finding here to suppress; remove it (" + rule + ")",
		})
	}
}

// reportBadIgnores reports //syncio:ignore comments without a reason or
// without valid rule IDs. They are reported under the first rule they
// name (SIO000 when they name none), so SARIF keeps one rule per ID.
func (r *runner) reportBadIgnores() {
	for _, ig := range r.dirs.all {
		rule := "SIO000"
		var unknown []string
		for _, id := range ig.ids {
			if _, ok := RuleByID(id); ok {
				if rule == "SIO000" {
					rule = id
				}
			} else {
				unknown = append(unknown, id)
			}
		}
		var problem string
		switch {
		case len(ig.ids) == 0:
			problem = "syncio:ignore names no rule; write //syncio:ignore SIO001 -- why this is safe"
		case len(unknown) > 0:
			problem = "syncio:ignore names unknown rule " + strings.Join(unknown, ", ") + "; use IDs from docs/rules"
		case ig.reason == "":
			problem = "syncio:ignore needs a reason; write //syncio:ignore " + strings.Join(ig.ids, ",") + " -- why this is safe"
		default:
			continue
		}
		ig.bad = true
		r.pass.Report(analysis.Diagnostic{Pos: ig.pos, End: ig.end, Category: rule, URL: r.cfg.suppressionURL(), Message: problem + " (" + rule + ")"})
	}
}

// declName is the name a root has in messages: F, T.M or (*T).M.
func declName(fd *ast.FuncDecl, fn *types.Func) string {
	if fn == nil {
		return fd.Name.Name
	}
	q := knowledge.Qualified(fn, "")
	return strings.TrimPrefix(q, ".")
}

// displayName names a callee in a chain: pkgname.F for project code.
func displayName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return knowledge.Qualified(fn, fn.Pkg().Name())
}

// terminalName names the call that ends a chain: by import path for the
// standard library (database/sql.(*DB).QueryContext, like the SIO001
// table), by package name for everything else.
func terminalName(fn *types.Func) string {
	path := fn.Pkg().Path()
	if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") {
		return knowledge.Qualified(fn, path)
	}
	return displayName(fn)
}
