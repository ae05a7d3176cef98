// Package analyzer implements the syncio go/analysis Analyzer: it finds
// blocking I/O on HTTP request paths (net/http, httprouter, gin, echo,
// fiber, hertz, gRPC and connect-go handlers; [docs/frameworks.md]) and
// reports it at the root's call that leads to it, with the call chain in
// the message. Frameworks are recognised by import path and type name
// only, so the analyzer depends on none of them. What each rule flags is
// in docs/rules and internal/rules; this package is the wiring.
//
// # Stages
//
// run (analyzer.go) analyses one package as a list of stages, a file
// each, in the order their side effects need; the package's analysis is
// three layers, each holding the one below in a named field (runner.scanned,
// scanned.view: pkgView), each method on the lowest it needs. A package
// with type or syntax errors runs the same stages for its facts alone
// (runBroken), so the packages importing it are analysed too:
//
//	scan          stage_scan.go       facts of the packages below, the files, directives, pre-passes
//	findRoots     stage_roots.go      every body into items (classify.go); the request roots
//	summarize     stage_summarize.go  the fixpoint: each function's paths.Summary
//	exportFacts   stage_facts.go      a paths.BlocksFact for each function that is no root
//	reportRoots   stage_report.go     the roots' calls' findings, queued; their pending calls
//	joinCalls     stage_join.go       calls through interfaces and stored funcs joined (internal/join)
//	rep.Flush     internal/report     one diagnostic per call and rule, the join's paths included
//	staleIgnores  stage_stale.go      SIO008's sites (servers, dialers); the ignores that hid nothing
//	settleGin     stage_gin.go        gin diagnostics held here, or decided from below (decideGin: in scan)
//	result        stage_result.go     the seen.Package: roots, registrations, references
//
// # One finding
//
// A handler is a root by its signature, a registration call or an adapter
// (resolve, knowledge's routes; roots.go, internal/registry). classify.go
// turns its body into items: an operation a rule judges (internal/rules,
// against knowledge's tables as the Config holds them, dataflow for where
// a context comes from), a call, or an interface call, with the lock or
// transaction held at each (regions). calls.go leads a call to the
// package's own summary or another package's paths.BlocksFact, which a
// helper exports. At the root's call the reporter (internal/report) emits
// one diagnostic per rule with the chain and fixes, unless an ignore
// (internal/directive) hides it. An interface call or a call through a
// stored func travels up as a pending call until a package sees what is
// bound to it; internal/join reports it there, at the same root's call.
//
// A block that can only end the process (its last statement is os.Exit,
// log.Fatal, a logger's Fatal or a function that ends in one, internal/exits)
// gives no items: a handler's error branch that flushes a reporter with
// context.Background() before exiting serves no request, so it is no
// request-path finding; a paths.ExitsFact carries such a function to the
// packages above. So does the stretch of a getter that builds what it
// keeps on its first call (if d.db != nil { return d.db } … d.db = …;
// resolve.FirstUse): start-up work, not a request's.
//
// A *gin.Context given as a context is a finding only under the engine's
// default ContextWithFallback = false, set where the engine is built,
// usually above the handlers. A package that cannot see the setting holds
// such diagnostics in a fact (stage_gin.go, internal/ginsetting); the
// first package above that builds an engine, sets the field or is main
// reports or drops them.
//
// # Packages
//
// A unit imports only the units above it in this list (regions and
// config are siblings, so are dataflow, registry and branches, and so are
// join and report: neither knows the other; seen imports none of them), and none imports package analyzer (TestLayering's layers); the
// rule-free ones name no rule (TestUnitsKnowNoRule). Each one's doc
// comment says what it holds and what it must not know.
//
//	internal/casetest   tests only: the testdata tree loaded once, cases checked against // want
//	internal/standin    tests only: a unit test's source type-checked against stand-in packages
//	internal/directive  the //syncio: comments: ignores by line and doc comment, the handler marker
//	internal/named      types and methods recognised by import path and name
//	internal/knowledge  what is known of libraries: call tables, routers' registrations, frameworks
//	internal/regions    locks and transactions held over a stretch of a body
//	internal/config     the rule catalogue, Config, Settings and the flags (one set of parsers)
//	internal/resolve    who calls what: roots by signature, handlers, adapters, slots
//	internal/dispatch   calls through interfaces and stored funcs: the model, its index and the walk
//	internal/paths      the path model: Summary and Items, Finding, BlocksFact and its bounds
//	internal/dataflow   values followed through one body: contexts, query chains, later uses, nil-context guards
//	internal/registry   registration calls and registrars made roots; the seen.Package's roots
//	internal/branches   dispatch branches told from handlers: Mark, and the references (Refs)
//	internal/exits      stretches of a body that can only end the process (log.Fatal, os.Exit)
//	internal/ginsetting gin's ContextWithFallback decided program-wide; diagnostics held until then
//	internal/rules      each rule decided in one file, with its wording and fix (SIO002: dropped.go)
//	internal/join       the second phase: conversions and stores recorded, pending calls joined
//	internal/report     diagnostics from paths: chains, related positions, fixes, ignores, sites
//	seen                each pass's result: roots and registrations, for the roots line
//
// [docs/frameworks.md]: https://github.com/syncio/syncio/blob/main/docs/frameworks.md
package analyzer
