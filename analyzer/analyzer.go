package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/named"
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
		FactTypes: factTypes(),
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
	ignores []*directive.Ignore // the doc comment's //syncio:ignore directives
	result  *finding            // set when a non-root function blocks
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

// The analysis of one package is three layers, each embedding the one
// below it, so that a method's receiver says what it may read and the
// compiler keeps the flow one way (a lower layer cannot reach a higher
// one's fields or methods):
//
//	pkgView  the package as the driver gave it, the configuration, the
//	         directives and the reporter: sites, and each rule's judgement
//	         of one operation (the rule_*.go tables and shapes);
//	scanned  what the package's pre-passes found (adapters and
//	         registrations, slots and stores, memoisers, callbacks, which
//	         functions read their context): roots, and turning a body into
//	         items (classify.go), with no summary to read;
//	runner   the summaries of the package's functions and literals: what
//	         an item leads to (calls.go), the fixpoint and facts (stage_*.go), the
//	         dispatch join (dispatch.go), and what a rule decides over
//	         several functions (joins.go, the deferred SIO002).
//
// Every layer's receiver is named r: it is one package's analysis, seen
// from as high as the method needs.
type pkgView struct {
	pass  *analysis.Pass
	cfg   *Config
	dirs  *directive.Index
	files map[string]*token.File // lazily built, for cross-package sites
	// rep makes the diagnostics (report.go), from the moment the
	// directives are read.
	rep *reporter
	// thirdParty is set for packages of dependency modules (isThirdParty):
	// their channels are their own synchronisation, and a context they
	// drop into an interface method is not evidence of I/O.
	thirdParty bool
	// ginFallback: a *gin.Context is the request's context here (the
	// configuration says so, or this package sets ContextWithFallback).
	ginFallback bool
	// semChans are the channels this package uses as semaphores (see
	// semaphoreChan); nil until first asked.
	semChans map[types.Object]bool
	// below are the package facts of the packages below, by origin path,
	// whichever driver runs (carried.go).
	below []carried
}

// scanned is the package with what its pre-passes found (see pkgView).
type scanned struct {
	pkgView
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
	// Stored func values (stored.go): the package's slots, its stores
	// and the parameters its functions store (resolve.Stored).
	slots  *resolve.Slots
	stored *resolve.Stored
	// argLits are the literals passed to interface methods
	// (dyncallbacks.go), summarised with litSummaries.
	argLits []*ast.FuncLit
	// slotRoots are the functions the package stores into slots that
	// request roots below call (slotroots.go).
	slotRoots *slotRoots
}

// runner is the package with its functions' summaries (see pkgView).
type runner struct {
	scanned
	byFunc map[*types.Func]*fnSummary
	// litSummaries are the summaries of the literals the package stores
	// or calls through a value (stored.go) and passes to interface
	// methods (dyncallbacks.go).
	litSummaries map[*ast.FuncLit]*fnSummary
}

// run analyses one package: a list of stages, each in a file of its own
// (stage_*.go), in the order their side effects need. Diagnostics and
// facts come out in this order, which every driver sees.
func run(pass *analysis.Pass, cfg *Config) (any, error) {
	if inGOROOT(pass) {
		// The standard library's blocking APIs are in the SIO001 table and
		// are judged at the caller; its internals (runtime channels and the
		// like) are not request paths and would make everything "block".
		return &seen.Package{Path: pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: []seen.Registration{}}, nil
	}
	r := newRunner(pass, cfg)
	files := r.scan()
	b := r.findRoots(files)
	r.summarize(b.decls)
	r.exportFacts(b.decls, b.roots)
	pending, dropped := r.reportRoots(b.roots)
	unfollowed := r.joinCalls(files, b.rootLits, pending, dropped)
	r.staleIgnores(b.decls)
	return r.result(files, b.roots, unfollowed), nil
}

// entryPoint reports whether fn is main.main or an init function: nothing
// calls them, so they export no fact.
func entryPoint(fn *types.Func) bool {
	if named.Recv(fn) != nil {
		return false
	}
	return fn.Name() == "init" || (fn.Name() == "main" && fn.Pkg() != nil && fn.Pkg().Name() == "main")
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
