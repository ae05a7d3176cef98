package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/syncio/syncio/analyzer/internal/config"
	"github.com/syncio/syncio/analyzer/internal/directive"
	"github.com/syncio/syncio/analyzer/internal/exits"
	"github.com/syncio/syncio/analyzer/internal/ginsetting"
	"github.com/syncio/syncio/analyzer/internal/join"
	"github.com/syncio/syncio/analyzer/internal/knowledge"
	"github.com/syncio/syncio/analyzer/internal/paths"
	"github.com/syncio/syncio/analyzer/internal/registry"
	"github.com/syncio/syncio/analyzer/internal/report"
	"github.com/syncio/syncio/analyzer/internal/resolve"
	"github.com/syncio/syncio/analyzer/internal/rules"
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
opt-in) or hold a database transaction across a remote call (SIO007), and
servers, clients and dialers that wait with no deadline (SIO008). Helpers are followed across packages through facts; a finding is
reported at the root's call with the chain. Suppress with
//syncio:ignore SIO00N -- reason; ignores that hide nothing are reported.`

// Analyzer is the syncio analyzer with the default configuration.
var Analyzer = New(DefaultConfig())

// New returns a syncio analyzer for cfg. The returned analyzer owns a copy
// of cfg, which its flags (-rules) may change before it runs.
func New(cfg Config) *analysis.Analyzer {
	c := cfg.Clone()
	a := &analysis.Analyzer{
		Name: Name,
		Doc:  doc,
		URL:  "https://github.com/syncio/syncio/blob/main/docs/rules/",
		// No Requires: bodies are walked with ast.Inspect, and an
		// inspect.Analyzer dependency would build an inspector for every
		// package in the graph, the standard library included.
		FactTypes: factTypes(),
		Run:       func(pass *analysis.Pass) (any, error) { return run(pass, c) },
		// A package with type errors is analysed for its facts, so that
		// the packages importing it are analysed too (one broken leaf
		// package would otherwise cost every package above it); its own
		// diagnostics, judged on incomplete types, are not reported
		// (runBroken).
		RunDespiteErrors: true,
		// What the run saw (roots, registrations) for the standalone
		// driver's roots line; other drivers drop it.
		ResultType: reflect.TypeOf((*seen.Package)(nil)),
	}
	config.RegisterFlags(&a.Flags, c)
	return a
}

// The analysis of one package is three layers, each holding the one below
// it in a named field (no embedding), so that a method's receiver says what
// it may read, a call says which layer it touches (r.scanned.collect,
// s.view.site), and the compiler keeps the flow one way (a lower layer
// cannot reach a higher one's fields or methods):
//
//	pkgView  the package as the driver gave it, the configuration, the
//	         directives and the reporter: sites, and each rule's judgement
//	         of one operation (internal/rules);
//	scanned  what the package's pre-passes found (adapters and
//	         registrations, slots and stores, memoisers, callbacks, which
//	         functions read their context): roots, and turning a body into
//	         items (classify.go), with no summary to read;
//	runner   the summaries of the package's functions and literals: what
//	         an item leads to (calls.go), the fixpoint and facts (stage_*.go), the
//	         dispatch join (dispatch.go, internal/join), and what the rules
//	         that weigh several functions are handed (joins.go,
//	         rule_dropped.go).
//
// Receivers are named by layer: v *pkgView, s *scanned, r *runner. A
// method belongs on the lowest layer whose fields it reads.
type pkgView struct {
	pass  *analysis.Pass
	cfg   runConfig
	dirs  *directive.Index
	files map[string]*token.File // lazily built, for cross-package sites
	// rep makes the diagnostics (internal/report), from the moment the
	// directives are read.
	rep *report.Reporter
	// thirdParty is set for packages of dependency modules (isThirdParty):
	// their channels are their own synchronisation, and a context they
	// drop into an interface method is not evidence of I/O.
	thirdParty bool
	// ginFallback: a *gin.Context is the request's context here (the
	// configuration says so, or the program sets ContextWithFallback as
	// far as this package sees; decideGin).
	ginFallback bool
	// gin is this package's part in deciding gin's engine setting, and
	// ginHeld the diagnostics it holds for a package above to decide.
	gin     *ginsetting.Package
	ginOwn  ginsetting.Engine
	ginHeld []ginsetting.Held
	// below are the package facts of the packages below, by origin path,
	// whichever driver runs (join.ReadBelow).
	below []join.Carried
	// rules judge one operation (internal/rules), reading the package
	// only through what this hands them.
	rules *rules.Pkg
}

// scanned is the package with what its pre-passes found (see pkgView).
type scanned struct {
	view *pkgView
	// ctxs is SIO002 (internal/rules' dropped.go, wired in
	// rule_dropped.go), with what its pre-pass found.
	ctxs     *rules.Contexts
	cb       *callbacks        // what is passed to adapters (callbacks.go)
	sync     *resolve.Sync     // parameters called on the spot, by fact (resolve)
	adapters *resolve.Adapters // handler adapters, by fact (resolve)
	// reg is the registration calls and their roots (internal/registry).
	reg      *registry.Registry
	handlers *resolve.Handlers // follows handler values to functions
	memos    *resolve.Memos    // this package's memoisers, by fact (resolve)
	// Stored func values (stored.go): the package's slots, its stores
	// and the parameters its functions store (resolve.Stored).
	slots  *resolve.Slots
	stored *resolve.Stored
	// argLits are the literals passed to interface methods
	// (dyncallbacks.go), summarised with litSummaries.
	argLits []*ast.FuncLit
	// slotRoots are the functions the package stores into slots that
	// request roots below call (join.FindSlotRoots).
	slotRoots *join.SlotRoots
	// exits tells the stretches of a body that end the process
	// (internal/exits).
	exits *exits.Finder
	// perRequest are the types this package builds in request handlers:
	// a getter of theirs that fills a field on first use runs per request
	// (resolve.FirstUse).
	perRequest map[*types.TypeName]bool
	// holds is what the package's places of interface type hold
	// (join.Holds); nil in a dependency's package.
	holds *join.Holds
	// ctxOpts are the context fields the package's functional options
	// set (dataflow.CtxOptions), for the guards of its bodies.
	ctxOpts map[*types.Var]paths.Guard
}

// runner is the package with its functions' summaries (see pkgView).
type runner struct {
	scanned *scanned
	view    *pkgView // scanned.view
	byFunc  map[*types.Func]*paths.Summary
	// litSummaries are the summaries of the literals the package stores
	// or calls through a value (stored.go) and passes to interface
	// methods (dyncallbacks.go).
	litSummaries map[*ast.FuncLit]*paths.Summary
}

// run analyses one package: a list of stages, each in a file of its own
// (stage_*.go), in the order their side effects need. Diagnostics and
// facts come out in this order, which every driver sees.
func run(pass *analysis.Pass, cfg *Config) (any, error) {
	if len(pass.TypeErrors) > 0 || unparsed(pass.Files) {
		return runBroken(pass, cfg)
	}
	return stages(pass, cfg)
}

// stages is run's list of stages.
func stages(pass *analysis.Pass, cfg *Config) (any, error) {
	if inGOROOT(pass) {
		// The standard library's blocking APIs are in the SIO001 table and
		// are judged at the caller; its internals (runtime channels and the
		// like) are not request paths and would make everything "block".
		return &seen.Package{Path: pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: []seen.Registration{}}, nil
	}
	r := newRunner(pass, cfg)
	files := r.scanned.scan()
	b := r.findRoots(files)
	r.summarize(b.decls)
	r.scanned.exportFacts(b.decls, b.roots)
	pending, dropped := r.reportRoots(b.roots)
	unfollowed := r.joinCalls(files, b.rootLits, pending, dropped)
	r.view.rep.Flush()
	r.staleIgnores(files, b.decls)
	held, decided := r.view.settleGin()
	res := r.scanned.result(files, b.roots, unfollowed)
	res.GinHeld, res.GinDecided = held, decided
	return res, nil
}

// declName is the name a root has in messages: F, T.M or (*T).M.
func declName(fd *ast.FuncDecl, fn *types.Func) string {
	if fn == nil {
		return fd.Name.Name
	}
	q := knowledge.Qualified(fn, "")
	return strings.TrimPrefix(q, ".")
}

// runBroken analyses a package that has type or syntax errors for the
// facts the packages above it read. The driver has named the package and its first
// error; its diagnostics are dropped, and a panic on what the type
// checker left out costs this package's facts alone.
func runBroken(pass *analysis.Pass, cfg *Config) (res any, err error) {
	quiet := *pass
	quiet.Report = func(analysis.Diagnostic) {}
	defer func() {
		if p := recover(); p != nil {
			res, err = &seen.Package{Path: pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: []seen.Registration{}}, nil
		}
	}()
	if _, err := stages(&quiet, cfg); err != nil {
		return nil, err
	}
	// Its roots are not counted: none of their findings is reported.
	return &seen.Package{Path: pass.Pkg.Path(), Roots: []seen.Root{}, Registrations: []seen.Registration{}}, nil
}

// unparsed reports whether a file lost code to a syntax error: the
// parser leaves Bad nodes there, and the type checker, taking the error as
// reported, may add no type error of its own.
func unparsed(files []*ast.File) bool {
	bad := false
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.BadExpr, *ast.BadStmt, *ast.BadDecl:
				bad = true
			}
			return !bad
		})
		if bad {
			return true
		}
	}
	return false
}
