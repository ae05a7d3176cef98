// Package analyzer implements the syncio go/analysis Analyzer. It finds
// blocking I/O on HTTP request paths (net/http, httprouter, gin, echo,
// fiber, hertz, gRPC and connect-go handlers) and reports it at the root's call that leads to the blocking
// operation, with the call chain in the message.
//
// Frameworks are recognised by import path and type name only, so the
// analyzer has no dependency on any of them.
//
// # Layout
//
// The analyzer is split into units that data flows through one way; a
// unit imports only those listed above it, join and report are siblings
// that import neither the other, and none imports package analyzer
// (TestLayering keeps it so); directive, named, regions, resolve and
// dataflow name no rule (TestUnitsKnowNoRule):
//
//	internal/casetest   tests only: the testdata tree loaded once per test
//	                    binary, each case checked against its // want lines
//	internal/directive  the //syncio: comments: ignores by line and by doc
//	                    comment, the //syncio:handler marker
//	internal/named      types and methods recognised by import path and name
//	internal/knowledge  what is known of libraries: the call tables as data
//	                    (blocking.txt, calls.txt), gorm's receivers, and
//	                    the routers' registration calls (a table, routes.go),
//	                    the frameworks' import paths (frameworks.go),
//	                    which packages are the Go distribution's (std.go)
//	internal/regions    locks and transactions held over a stretch of a body
//	internal/resolve    which functions are request roots by signature
//	                    (roots.go) and handler adapters (adapters.go,
//	                    AdapterFact); a handler value followed to the
//	                    functions that run; the slots func values are
//	                    stored in and called through (slots.go), the
//	                    package's stores and the parameters a function
//	                    stores (stored.go, StoresFact); the
//	                    parameters a function calls on the spot (sync.go,
//	                    CallsFact); the memoisers, whose func parameters
//	                    run once per key (memo.go, MemoFact); the
//	                    dispatch model (dispatch.go): the
//	                    interface calls and conversions facts carry, which
//	                    interfaces are followed, the bindings' index, with
//	                    what a call does as the analyzer's payload; the
//	                    dispatch walk over the bindings (walk.go: hops,
//	                    budgets, slots' funcs, func arguments), told by
//	                    the analyzer what a payload leads to
//	internal/paths      the path model: what a body does (Summary, its
//	                    Items), a path seen from one call (Finding), the
//	                    fact a function exports (BlocksFact), the bounds
//	                    (MaxTerminals, MaxOps), the receiver-lock marks
//	                    (locks.go) and the dispatch model's instances with
//	                    BlocksFact as payload (dyn.go); it decides no rule
//	internal/dataflow   values followed through one body, with no other
//	                    function's summary: where a context comes from
//	                    (Ctx), whether a query builder's chain carries one
//	                    (Chain), what a body does later with a request or
//	                    command it makes (Later, and Attach, which
//	                    attachFact carries), whose receiver a call is on
//	                    (Owners), the library shapes a row cannot state
//	                    (libs.go); it decides no rule
//	internal/rules      each rule's judgement of one operation, a file per
//	                    rule, with its wording: SIO001 (blocking.go), SIO003
//	                    and SIO007 (held.go), SIO004 (client.go), SIO005's
//	                    waits, channels and joins (wait.go), SIO006
//	                    (file.go), SIO002 (dropped.go, rules.Contexts, with
//	                    its deferred candidates, Dropped); it reads the
//	                    package through rules.Pkg (types, path, sites, the
//	                    configuration's switches and rows) and what the
//	                    analyzer hands in (facts, summaries, the join's
//	                    walk), never the runner; the reporter is handed
//	                    held.go's wording (rules.Held)
//	internal/join       the second phase: pending interface calls joined
//	                    with the conversions and stores that bind them, the
//	                    facts that carry both (PendingFact, ConvFact,
//	                    JoinedFact) and the deferred SIO002 candidates
//	                    (Dropped); what a binding leads to, which rules
//	                    apply and how to report are handed in (Hooks);
//	                    recording the conversions, stores and interface
//	                    calls' func arguments (Recorder, handed what a
//	                    function does), the slots roots call
//	                    (RootSlotsFact) and the package facts below, carried
//	                    for go vet (ReadBelow, CarriedFact)
//	internal/report     diagnostics from paths: one per rule with its
//	                    chain, related positions, the operations named and
//	                    counted, suggested fixes, and the diagnostics about
//	                    ignores (malformed, stale); handed the
//	                    configuration's switches and the rules' hints
//	analyzer            one package's analysis: run (analyzer.go) is the
//	                    list of stages below, one file each; the package
//	                    is in three layers that each
//	                    embed the one below (pkgView in analyzer.go), so a
//	                    method's receiver says what it may read and the
//	                    compiler refuses a reach upwards; each method sits
//	                    on the lowest layer it needs (TestMethodsAtTheirLayer):
//	                      pkgView: the pass, Config (with the roots it
//	                      names, roots.go), directives, sites, and the
//	                      rules.Pkg each rule's judgement of one
//	                      operation reads;
//	                      scanned: what the pre-passes found (adapters,
//	                      registrations, stores, memoisers, which
//	                      functions read their context), the roots, and
//	                      bodies turned into items (classify.go);
//	                      runner: the summaries: what an item leads to
//	                      (calls.go), the fixpoint and facts
//	                      (stage_summarize.go, stage_facts.go), what the
//	                      join is handed (stage_join.go, dispatch.go,
//	                      stored.go), and what a rule deciding over several
//	                      functions is handed (joins.go, rule_dropped.go);
//	                    the reporter (internal/report) is handed what it
//	                    needs (stage_scan.go's reportOpts) and holds no
//	                    layer; each rule's decisions in a file of
//	                    its own: internal/rules' blocking.go (SIO001),
//	                    held.go (SIO003, SIO007), client.go (SIO004),
//	                    wait.go (SIO005), file.go (SIO006) and dropped.go
//	                    (SIO002)
//	seen                the result of each pass: its roots and registration
//	                    calls, for the standalone driver's roots line, and
//	                    the references that tell a dispatch branch from a
//	                    handler (rootrefs.go)
//
// # Stages
//
// run (analyzer.go) is the pipeline; each stage is a method in a file of
// its own, in the order their side effects need:
//
//	scan          stage_scan.go       facts of the packages below (carried.go), the
//	                                  files, directives, the pre-passes' facts
//	findRoots     stage_roots.go      every body into items (classify.go); the roots
//	summarize     stage_summarize.go  the fixpoint: each function's paths.Summary
//	exportFacts   stage_facts.go      a paths.BlocksFact per function; the slots roots call
//	reportRoots   stage_report.go     diagnostics at roots' calls; their pending calls
//	joinCalls     stage_join.go       conversions and stores recorded; internal/join
//	staleIgnores  stage_stale.go      helpers' items resolved; stale ignores reported
//	result        stage_result.go     the seen.Package: roots, registrations, refs
//
// The flow of one finding, from a handler to its message:
//
//  1. The roots stage (stage_roots.go) walks the package; resolve's roots.go, the
//     functions passed to resolve's adapters (callbacks.go) and the
//     registration calls of registrations.go (a
//     knowledge table entry, its handler arguments followed by resolve)
//     say which functions serve requests.
//  2. collect (classify.go) turns each body into items: an operation that
//     a rule's file judges (against the rows of internal/knowledge's
//     blocking.txt and calls.txt, held by Config; internal/dataflow for the shapes a
//     row cannot state; its Ctx and Later for where a context comes
//     from), a call, or an interface call; regions marks the lock (SIO003)
//     or transaction (SIO007) held at each.
//  3. resolve (calls.go) says what a call leads to: the same package's
//     summaries (the fixpoint of stage_summarize.go) or another package's
//     paths.BlocksFact; resolve's Sync adds func values called on the spot
//     (CallsFact), and stored.go calls through a struct field or package
//     variable (slots).
//  4. A function that is no root exports its paths as a paths.BlocksFact
//     (stage_facts.go); its interface calls travel up with it.
//  5. At a root's call (stage_report.go), the reporter (internal/report)
//     groups the paths by rule and emits one diagnostic per rule with the
//     chain, related positions and fixes, unless a directive
//     (internal/directive) suppresses it. It is handed what it needs (the
//     directives, how to name a site, reportOpts) and holds no runner; the
//     join (6) reads back only what it emitted.
//  6. Interface calls at roots travel as join.PendingFact (resolve's
//     model, with paths.BlocksFact as the payload); internal/join joins
//     them with the conversions (join.ConvFact, recorded by dispatch.go)
//     where both are seen: resolve's Walk follows each through the
//     bindings to the paths behind it, and the join applies the rules and
//     reports at the root's call through the hooks stage_join.go hands
//     it, once (join.JoinedFact), the pending calls at one root's call together
//     (one diagnostic per rule, as for a static path). Calls through slots join the
//     same way with the funcs stored there (stored.go records them as
//     convs, with the place of each store). A SIO002 at a root's call
//     whose callee's only evidence of I/O is such interface calls travels
//     in the join.PendingFact too (join.Dropped) and is decided at the join
//     (internal/rules' dropped.go). A call through a slot that the walk follows to
//     none of the funcs stored there (a generic field holding funcs of
//     several types, a field of one value filled at several places) is
//     recorded (Bindings.Unfollowed) and goes into the package's result
//     (seen.Package.Unfollowed), so the roots line says it is unseen.
//     These package facts are read through r.below (carried.go): go vet
//     hands a package its direct imports' only, so a package that was
//     handed no more passes them on (carriedFact).
//
// # Request roots
//
// [docs/frameworks.md] lists every shape with its test and the request
// context that fixes use.
//
//   - net/http: functions, methods and func literals of type
//     func(http.ResponseWriter, *http.Request), ServeHTTP included, and
//     httprouter's func(http.ResponseWriter, *http.Request,
//     httprouter.Params);
//   - gin func(*gin.Context), echo func(echo.Context) error (v4) and
//     func(*echo.Context) error (v5), fiber
//     func(*fiber.Ctx) error (v2) and func(fiber.Ctx) error (v3), hertz
//     func(context.Context, *app.RequestContext), and connect-go handlers
//     (connectrpc.com/connect or github.com/bufbuild/connect-go)
//     (ctx, *connect.Request[T]) and (ctx, *connect.ClientStream[T])
//     returning (*connect.Response[U], error), (ctx, *connect.Request[T],
//     *connect.ServerStream[U]) and (ctx, *connect.BidiStream[T, U])
//     returning error, as declarations or as func literals anywhere
//     (router arguments included);
//   - gRPC methods on a type that embeds a generated Unimplemented*Server:
//     unary (ctx context.Context, req *T) (*U, error), server streaming
//     (req *T, stream X) error and client or bidi streaming (stream X)
//     error, where X is an interface with grpc.ServerStream's Context
//     method; stream.Context() is then the request context;
//   - any function whose doc comment holds //syncio:handler, and the
//     functions and func(T) patterns of Config.Roots;
//   - any function a router's registration call is given, whatever its
//     type, followed through conversions, locals, returned literals and
//     method values (registrations.go), and what the callers of the
//     program's own registration helpers pass them (registrarFact); a
//     handler argument that cannot be
//     followed is recorded with the reason in the pass's seen.Package,
//     and with Config.StrictRoots a package whose registrations all lead
//     nowhere, with no root of its own, is reported (SIO000);
//   - any function stored into a slot (stored.go) that a request root of
//     a package below calls itself, through the slot or by handing the
//     value read from it to a parameter called on the spot
//     (routeHook.Trigger(event, v.Action)): the root's package exports
//     those slots (rootSlotsFact, slotroots.go), and a package storing a
//     function there, directly or through a parameter its callee stores
//     (resolve.StoresFact), makes it a root ("stored" in the roots
//     report), as a registration would: a service's own router's
//     handlers are reported inside themselves, not merged at the
//     router's call.
//
// # Rules
//
// SIO001 (blocking-call) flags context-less calls from a data-driven table
// (Config.Blocking) that have a context-aware variant, judged with what the
// function does later with a local variable holding the result (dataflow.Later):
// an http.NewRequest whose request is given the request's context, or one
// of unknown origin, by req.WithContext(ctx) or req.Clone(ctx) before the
// variable is assigned again is not flagged, nor is an exec.Command started
// as a detached daemon (cmd.Start() then cmd.Process.Release(), or
// cmd.SysProcAttr with Setsid: true and no Run, Output or CombinedOutput),
// which exec.CommandContext would kill when the request ends. SIO002
// (dropped-context) flags a call whose first parameter is context.Context
// when it is given context.Background(), context.TODO(), or a local
// variable derived only from those, and the callee can reach blocking I/O
// with it: a callee of an analysed package that returns only basic values
// and errors (a builder may return the context inside its result) and has
// no fact (another package, factlessIdle) or whose summary shows nothing
// (the same package, idleCallee) is silent, while the standard library, interface methods,
// func values and request roots, which have no facts, keep the signature
// rule. A static callee of the module whose context parameter is unnamed,
// "_" or never referenced in its body (ignoresContext; paths.BlocksFact.CtxUnused
// for another package) is silent too: the context cannot leave it, and
// what it blocks on with a context of its own is reported as its path.
// A function that hands a context to a call the analysis cannot
// follow (an interface method not dispatched, a func value) is opaque
// (paths.BlocksFact.Opaque, which its callers inherit), never idle; contexts
// of unknown origin (fields, function results) are never flagged, and
// context.WithoutCancel is a deliberate detach. A callee that is a memory
// row (calls.txt: an in-memory library whose context reaches only the
// func values the program registers, go-playground/validator's StructCtx)
// is marked OpMemory in a dependency's facts and dropped in the program's
// passes unless the program hands that library a function taking a
// context (rules.CtxCallbackFact); a program's function that
// hands it its own context is opaque on the same condition, judged by the
// pass that calls it (paths.BlocksFact.OpaqueMemory). At a root's call, a
// callee whose only evidence is calls through interfaces bound elsewhere
// (a cache interface main binds to an in-memory cache) is not decided in
// the root's package, which cannot see the binding: the join decides it
// (join.Dropped), reporting it when a binding it sees reaches I/O or
// hands the context on, leaving it to the packages above when the
// bindings seen reach nothing, and reporting it by the signature rule in
// package main, above which no binding can come, when a context-taking
// interface call of the callee has no binding at all. SIO005 (uncancellable-wait) flags time.Sleep,
// WaitGroup and Cond waits, bare channel sends and receives, range over a
// channel, and select statements with neither a x.Done() case nor default;
// the Done() of a context derived from context.Background() or TODO() (as
// dataflow.Ctx classifies it) is no escape, one of unknown origin is. A
// WaitGroup or errgroup join in the module's own code is reported only when
// a goroutine it joins does not stop with the request's context (a SIO001,
// SIO002 or SIO005 operation other than a bare channel operation, which is
// the goroutines' own hand-over, or an interface call given no context):
// the idiomatic errgroup.WithContext(r.Context()) fan-out and a CPU worker
// pool ranging over its jobs channel are silent (rules' wait.go).
// SIO003 (lock-across-io) flags a sync.Mutex/RWMutex held (Lock…Unlock in a
// block, or Lock + defer Unlock) across any of those or across
// context-aware I/O (regions.Locks, the io rows of Config.IO). SIO004
// (client-per-request) flags http.Transport literals and the constructors
// of clients with their own connections (Config.Clients, client rows),
// except in a function that runs once per process (sync.Once.Do's, or a
// memoiser's: resolve's Memos, MemoFact), where neither SIO004 nor SIO005 counts;
// SIO006 (file-io, opt-in) flags os file I/O (Config.Files). SIO007 (tx-across-io) flags
// a database transaction (database/sql, sqlx, gorm's Begin and Transaction
// literal, pgx) or a *sql.Conn held open across a remote call or wait:
// anything SIO003 counts, except database calls and calls on or given the
// transaction (regions.Txs, modelled on regions.Locks). gorm (gorm.io/gorm and v1) and
// sqlx are recognised by import path: a gorm finisher on a chain rooted at a
// field, a global, or an index expression on one (dbs[name]), with no
// WithContext, is SIO001, and so is a finisher of an Association
// (db.Model(&u).Association("Roles").Find(&rs)) judged by the chain it was
// built from, not by gorm's own source; so is a query method of a
// Migrator (db.WithContext(ctx).Migrator().HasTable(&T{}) is silent, and
// not dispatched into gorm's migrator, whose queries run on the DB it
// stores). Locals are followed through their
// assignments: one reassigned from its own chain (db = db.Where(…), the
// list-query idiom) keeps the state of its origin, and a parameter's origin
// is unknown, so never flagged. pocketbase/dbx's finishers (Execute,
// One, All, … of a Query, SelectQuery or ModelQuery; knowledge/dbx.go)
// are judged the same way, by the chain before them (dataflow.Chain), not by
// dbx's source, which tests q.ctx == nil at run time: WithContext in the
// chain is silent, none on a stored builder is SIO001, and a chain the
// body cannot tell keeps dbx's fact. sqlx's context-less methods are table
// entries. The table is data, internal/knowledge/blocking.txt, one row per
// call with the evidence for it; the SDK rows (go-redis v6/v7, mongo-driver
// v1 GridFS, aws-sdk-go v1, Qiniu, Aliyun OSS, Huawei OBS) have their story
// in docs/rules/libraries.md; a row's routed hook (dataflow.RoutedHooks,
// named by knowledge.RoutedHooks) skips a call whose receiver or options may
// carry the context (go-redis v7's WithContext, oss.WithContext), which its
// key cannot show.
//
// # Configuration
//
// Config (and its flags -rules, -tests, -blocking, -allow, -roots) and
// Settings, the golangci-lint plugin's keys, share one parser:
// Settings.Config validates and builds a Config.
//
// # Interprocedural analysis
//
// Every function that is not a root and blocks (directly or through static
// callees, recursion included) exports a paths.BlocksFact with its chain, so
// callers in other packages see it under any go/analysis driver. A function
// that only does context-aware I/O exports a weaker fact (no rule) so that a
// caller holding a lock across it is SIO003; a fact records its
// highest-ranked path (rule + lock, rule, I/O under a lock, plain I/O; an
// open transaction breaks ties; for the same rule, the better kind) and,
// for each rule, its distinct blocking operations (terminals: name and
// site) in the order of paths.Finding.Better: rank, then kind
// (internal/knowledge/kinds.txt: remote calls and waits on other
// goroutines, then databases and caches, then unclassified, then local
// work), then the order found. The first paths.MaxTerminals (4) keep their
// paths, up to paths.MaxOps (16) are named by operation and site only (Ref),
// and the rest are counted (Over), so the fact is bounded per rule; plus,
// when no other path carries what it does, its best path to I/O that is
// no finding by itself (under a lock, across a transaction, or lockable
// when no other path is), so a file read that ranks higher (SIO006 on)
// does not hide a SIO003 there (paths.KeepIO). A
// root's call is reported once per rule it leads to (and once each for
// SIO003 and SIO007): the diagnostic is about the rule's first path, names
// up to three other operations after the hint and counts the rest ("; also
// reaches dep.Load → database/sql.(*DB).Query at dep.go:20:15, …, and 2
// more"; "and at least N more" where counts past paths.MaxOps meet), and
// attaches every one as related information at its position, so every
// distinct operation is visible without fixing the first, and -json and
// SARIF carry them all. Bodies of
// go statements, and func literals neither called on the spot nor passed
// to a parameter that the callee calls, are off the request path. The
// standard library is not analysed: its blocking APIs are
// judged at the caller through the SIO001 table. Packages of dependency
// modules (a module with a version, read from the module cache or from
// vendor/) are analysed too, with exceptions measured on real
// services (docs/precision.md): their bare channel operations,
// selects and sync.Cond waits are their own synchronisation and are no
// SIO005 wait, a call through an interface the library itself declares
// is its implementation and matches no table key (redigo's pooled Close
// flushing through its own Conn.Do), and SIO002
// there needs a static callee, since an interface method given
// context.Background() is no evidence of I/O. Their joins
// (WaitGroup.Wait, errgroup's Wait, singleflight's Do; the last two are
// SIO005 table entries, judged at the call everywhere) are no SIO005 wait
// either when the work they join does no blocking I/O (rules' wait.go): the
// function's go statements and errgroup Go arguments for a Wait, the
// function given to Do, with no SIO001, SIO002, SIO004 or SIO006
// operation, no context-aware I/O and no interface call on their paths. A
// Wait in a function that starts no goroutine, or starts a function value
// of unknown origin, joins unknown work and stays; a local variable
// assigned once from a func literal (argon2's go processSegment(…)) runs
// that literal. main and init are never
// request paths; _test.go files are only with Config.Tests.
//
// # Call resolution
//
// The rules (classify.go) turn operations and calls into items; call
// resolution (calls.go, internal/resolve, dispatch.go, internal/join) says what a callee leads
// to, so no rule knows how a callee was found:
//
//   - static calls: the same package's summaries, other packages' paths.BlocksFact;
//   - callbacks: a function that calls one of its func-typed parameters
//     before it returns (directly, in a literal called on the spot, or by
//     passing it on to such a parameter) exports a CallsFact (resolve's
//     Sync); a func literal
//     passed there is walked as part of the caller's body, and a function
//     value (f, pkg.F, x.Method) is an item calling that function. gorm's
//     Transaction and cache loaders get the fact from their own source.
//   - adapters: a function returning a request-handler literal
//     (http.HandlerFunc, gin, echo, fiber) that calls one of its func-typed
//     parameters exports an AdapterFact (resolve's Adapters), as does a
//     func type whose ServeHTTP calls its value (the appHandler idiom).
//     Only functions really passed there (or converted to that type)
//     become roots (callbacks.go); one from another package is reported
//     at the argument, with its fact.
//   - interface dispatch: analysis is bottom-up, so the handler's package
//     usually cannot see the concrete type wired in main. Calls through a
//     followed interface (not the standard library's, the frameworks',
//     loggers' or generated gRPC streams'), a method promoted from an
//     interface embedded in a struct included (c.Call for a client
//     embedding its caller is c.caller.Call), travel up as paths.BlocksFact.Dyn and,
//     at a root, as a join.PendingFact (the root's call, the chain, the lock held
//     and the rules ignored on the way). Every package records its
//     conversions of concrete types to followed interfaces (assignments,
//     composite-literal fields and elements, arguments, returns, explicit
//     conversions), with the concrete methods' facts, as a join.ConvFact, and
//     interface-to-interface conversions as edges. Each package joins the
//     pending calls it sees (its own and its dependencies') with the
//     conversions it sees, following up to four interface hops, and reports
//     the (root call, rule) pairs that no dependency reported (join.JoinedFact)
//     at the handler's call: the wiring package or main, reported once
//     along an import chain. Two mains that do not import each other but
//     both see a pair each report it; the standalone checker and
//     golangci-lint print a duplicate once, go vet prints it per package.
//     Drivers hand package facts over in map order; the join reads its
//     own conversions and pending calls first, then its dependencies' in
//     import-path order, so the binding that labels a finding ("bound to
//     … in …") and the order of reports are the same on every run.
//     Only types the program converts count, never every type with a
//     matching method set; conversions in _test.go count only with
//     Config.Tests, and so do test doubles in non-test files (testDouble:
//     a conversion recorded in a test-support package, or of a type
//     declared in one or named Mock…/Fake…/Stub…; knowledge's
//     TestSupport and TestDouble). A call made inside a dependency (a session library's
//     store.Get) travels up too, marked Dep (at most maxDepDyn per
//     summary, apart from the program's own; only through an exported
//     interface with no unexported method, which the program can
//     implement), and is joined only with
//     conversions made in the module under analysis (conv.Dep unset):
//     the program's Postgres store bound to the library's Store is
//     followed, the library's own implementations (a driver's connection,
//     a built-in store the library binds itself) are its plumbing and are
//     not. A dependency's own roots (a library's middleware) export no
//     pending calls.
//   - callbacks through interfaces (dyncallbacks.go): a func literal or
//     function value passed to an interface method
//     (ds.WithTx(func(tx DataStore) error {…})) is summarised where it is
//     written and travels with the interface call (paths.DynCall.Args, sealed
//     after the fixpoint); a conversion records, per concrete method, the
//     parameters it calls on the spot (convMethod.Calls, its CallsFact),
//     and the join follows an argument only into a binding that calls its
//     parameter, with "→ store.(*SQL).WithTx → func literal at api.go:16"
//     in the chain. A binding that keeps the function or starts it with
//     go does not run it. The join spends at most maxArgWork (4096)
//     bindings per pending call on func arguments, 512 per interface call
//     inside one (a literal full of repository calls is followed as far
//     as that goes). Not followed: an implementation that hands the
//     function on to another interface method, and a dependency's own
//     interface calls' arguments.
//   - stored func values (stored.go, resolve.Slots and resolve.Stored): a
//     call through a func value kept in a slot (a struct field, a package
//     variable, or a map, slice or array in one: rt.Action(e),
//     hooks[k](x), a local ranged or appended from them) is a dynamic
//     call of its own kind, and every func value the package stores there
//     (an assignment, a composite literal's field or element, an append,
//     or an argument to a parameter that the callee stores, which it
//     exports as a resolve.StoresFact) is a binding, with its function's
//     (or literal's) fact; the join
//     above leads the call to every stored function it sees, at most
//     maxSlotTargets (256) per slot and package, with "(via the func
//     stored in router.Route.Action by app.Register)" in the chain. A
//     stored function that is a request root is not followed, and one
//     stored into a slot a root below calls is a root (slotroots.go):
//     the join follows a slot to what remains, the functions stored by
//     the root's own package or a package below it, which cannot see
//     the root's fact, those stored into a field of one value, and the
//     slots the root reaches only through a callee (a hook's handlers
//     inside Trigger). A call in generic code makes the stored functions
//     roots only when the storing package sees functions of one type
//     there, as the join follows them. A call
//     through a local or a package variable of this package that
//     resolve follows to literals or functions (a closure returned and
//     called, mk()(x)) leads to them directly. A literal handed to a
//     method of an interface or type-parameter value that the function
//     then calls a method of (a hook chain: event.setNext(func…); …;
//     event.Next()) runs before the function returns, and a func
//     parameter appended to a local that is called there counts as
//     called (CallsFact). The standard library's callbacks
//     (knowledge.StdCallbacks: regexp's *Func methods, strings.Map,
//     sort.Slice, sync.Once.Do, filepath.Walk, …) run their function on
//     the caller's path. A join visits at most maxDispatchWork bindings
//     per pending call, over all hops, and follows an interface call
//     reached again on another path of the same pending call (same hop,
//     lock and ignores) only once: the first path to each operation is
//     the one reported anyway. A call through a field of one
//     struct value (w.svc.Profile() for a parameter or receiver, not
//     rt.Action for rt ranged over or read from a slice or map;
//     resolve.Call.One) is followed only when the program stores into
//     that field at one place: every store also records its place
//     (a conv with only a Site), and two places (two order.Services
//     literals, one blocking) mean the join cannot tell which value the
//     call reads, so it follows none. A field of a type declared in a
//     function is no slot (resolve.FieldKey). A field of a generic type
//     is one slot for every instantiation (router.Route[T].Action, keyed
//     by the origin type), and the stored functions' types tell them
//     apart (resolve.Sig, conv.Sig, paths.DynCall.Sig): a call through an
//     instance's field follows only the functions of its type; a call in
//     generic code, whose type mentions a type parameter, follows them
//     only when the joining package sees functions of one type stored
//     there (one hook.Handler[T].Func holds route middlewares, another
//     shutdown hooks: which one the call reads is not known, so
//     neither).
//
// # Suppression
//
// //syncio:ignore SIO001[,SIO005] -- reason, on the reported line or the line
// above, or in a function's doc comment for the whole function (and the
// handler literals inside it). In a helper
// it also stops the helper from exporting that finding to its callers. An
// ignore without a reason still suppresses but is itself reported, under the
// first rule it names (SIO000 when it names no valid rule). An ignore that
// hides nothing in this package is reported as stale, unless a rule it
// names is switched off.
//
// [docs/frameworks.md]: https://github.com/syncio/syncio/blob/main/docs/frameworks.md
package analyzer
