// Package rules decides what one operation breaks: each rule's judgement
// of a call, a literal or a path in a file of its own (blocking.go
// SIO001, dropped.go SIO002, held.go SIO003 and SIO007, client.go
// SIO004, wait.go SIO005's waits, channel operations and joins, file.go
// SIO006, deadline.go SIO008), with the rule's wording. It reads the package only through Pkg
// and the body through dataflow, so a rule is decided without the runner;
// what only the analyzer knows (another package's fact, a function's
// summary, what joined work leads to, the join's walk) is handed in as
// values, and a rule never learns how it was found. It must not know the
// driver, the runner's layers or how diagnostics are made (report).
//
// # What each rule flags
//
// SIO001 (blocking-call) flags context-less calls from a data-driven table
// (Config.Blocking) that have a context-aware variant, judged with what the
// function does later with a local variable holding the result
// (dataflow.Later): an http.NewRequest whose request is given the request's
// context, or one of unknown origin, by req.WithContext(ctx) or
// req.Clone(ctx) before the variable is assigned again is not flagged, nor
// is an exec.Command started as a detached daemon (cmd.Start() then
// cmd.Process.Release(), or cmd.SysProcAttr with Setsid: true and no Run,
// Output or CombinedOutput), which exec.CommandContext would kill when the
// request ends.
//
// SIO002 (dropped-context) flags a call whose first parameter is
// context.Context when it is given context.Background(), context.TODO(), or
// a local variable derived only from those, and the callee can reach
// blocking I/O with it: a callee of an analysed package that returns only
// basic values and errors (a builder may return the context inside its
// result) and has no fact (another package, factlessIdle) or whose summary
// shows nothing (the same package, idleCallee) is silent, while the standard
// library, interface methods, func values and request roots, which have no
// facts, keep the signature rule. A static callee of the module whose
// context parameter is unnamed, "_" or never referenced in its body
// (ignoresContext; paths.BlocksFact.CtxUnused for another package) is silent
// too: the context cannot leave it, and what it blocks on with a context of
// its own is reported as its path. A function that hands a context to a call
// the analysis cannot follow (an interface method not dispatched, a func
// value) is opaque (paths.BlocksFact.Opaque, which its callers inherit),
// never idle; contexts of unknown origin (fields, function results) are
// never flagged, and context.WithoutCancel is a deliberate detach. A callee
// that is a memory row (calls.txt: an in-memory library whose context
// reaches only the func values the program registers,
// go-playground/validator's StructCtx) is marked OpMemory in a dependency's
// facts and dropped in the program's passes unless the program hands that
// library a function taking a context (CtxCallbackFact, dropped.go); a
// program's function that hands it its own context is opaque on the same
// condition, judged by the pass that calls it
// (paths.BlocksFact.OpaqueMemory). At a root's call, a callee whose only
// evidence is calls through interfaces bound elsewhere (a cache interface
// main binds to an in-memory cache) is not decided in the root's package,
// which cannot see the binding: it is deferred (Dropped) and decided at the join (Contexts.Decide),
// reporting it when a binding it sees reaches I/O or hands the context on,
// leaving it to the packages above when the bindings seen reach nothing, and
// reporting it by the signature rule in package main, above which no binding
// can come, when a context-taking interface call of the callee has no
// binding at all.
//
// SIO005 (uncancellable-wait) flags time.Sleep, WaitGroup and Cond waits,
// bare channel sends and receives, range over a channel, and select
// statements with neither a x.Done() case nor default; the Done() of a
// context derived from context.Background() or TODO() (as dataflow.Ctx
// classifies it) is no escape, one of unknown origin is. A WaitGroup or
// errgroup join in the module's own code is reported only when a goroutine
// it joins does not stop with the request's context (a SIO001, SIO002 or
// SIO005 operation other than a bare channel operation, which is the
// goroutines' own hand-over, or an interface call given no context): the
// idiomatic errgroup.WithContext(r.Context()) fan-out and a CPU worker pool
// ranging over its jobs channel are silent (wait.go).
//
// SIO003 (lock-across-io) flags a sync.Mutex/RWMutex held (Lock…Unlock in a
// block, or Lock + defer Unlock) across any of those or across context-aware
// I/O (regions.Locks, the io rows of Config.IO).
//
// SIO004 (client-per-request) flags http.Transport literals and the
// constructors of clients with their own connections (Config.Clients, client
// rows), except in a function that runs once per process (sync.Once.Do's, or
// a memoiser's: resolve's Memos, MemoFact), where no rule counts, and in a
// getter's first-use construction (resolve.FirstUse), whose items are
// dropped.
//
// SIO006 (file-io, opt-in) flags os file I/O (Config.Files).
//
// SIO007 (tx-across-io) flags a database transaction (database/sql, sqlx,
// gorm's Begin and Transaction literal, pgx) or a *sql.Conn held open across
// a remote call or wait: anything SIO003 counts, except database calls and
// calls on or given the transaction (regions.Txs, modelled on
// regions.Locks).
//
// SIO008 (missing-deadline) flags, as sites of the package with no
// request path (Edges, reported by the analyzer's stale-ignores stage), an
// http.Server with no ReadHeaderTimeout/IdleTimeout (ReadTimeout covers
// both), a call of knowledge's serve rows (http.ListenAndServe, gin's Run)
// and a net.Dialer or tls.Dialer with no Timeout unless its every
// DialContext in the body is given a context with a deadline; and on the
// request path an (*http.Client).Do item, besides its I/O item, when the
// client has no Timeout where the package builds it and the request's
// context has no deadline. A call that hands its callee a context or a
// request with a deadline is marked (paths.Item.Bounded) and SIO008 does
// not pass through it (deadline.go).
//
// gorm (gorm.io/gorm and v1) and sqlx are recognised by import path: a gorm
// finisher on a chain rooted at a field, a global, or an index expression on
// one (dbs[name]), with no WithContext, is SIO001, and so is a finisher of
// an Association (db.Model(&u).Association("Roles").Find(&rs)) judged by the
// chain it was built from, not by gorm's own source; so is a query method of
// a Migrator (db.WithContext(ctx).Migrator().HasTable(&T{}) is silent, and
// not dispatched into gorm's migrator, whose queries run on the DB it
// stores). Locals are followed through their assignments: one reassigned
// from its own chain (db = db.Where(…), the list-query idiom) keeps the
// state of its origin, and a parameter's origin is unknown, so never
// flagged. pocketbase/dbx's finishers (Execute, One, All, … of a Query,
// SelectQuery or ModelQuery; knowledge/dbx.go) are judged the same way, by
// the chain before them (dataflow.Chain), not by dbx's source, which tests
// q.ctx == nil at run time: WithContext in the chain is silent, none on a
// stored builder is SIO001, and a chain the body cannot tell keeps dbx's
// fact. sqlx's context-less methods are table entries. The table is data,
// internal/knowledge/blocking.txt, one row per call with the evidence for
// it; the SDK rows (go-redis v6/v7, mongo-driver v1 GridFS, aws-sdk-go v1,
// Qiniu, Aliyun OSS, Huawei OBS) have their story in
// docs/rules/libraries.md; a row's routed hook (dataflow.RoutedHooks, named
// by knowledge.RoutedHooks) skips a call whose receiver or options may carry
// the context (go-redis v7's WithContext, oss.WithContext), which its key
// cannot show.
//
// # What is analysed
//
// Bodies of go statements, and func literals neither called on the spot
// nor passed to a parameter that the callee calls, are off the request
// path. The standard library is not analysed: its blocking APIs are
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
// (WaitGroup.Wait, errgroup's and the worker pools' Wait, singleflight's
// Do; all but the first are SIO005 table entries, judged at the call
// everywhere) are no SIO005 wait either when the work they join does no
// blocking I/O (wait.go): the function's go statements and the function
// arguments of the go rows (errgroup's and the pools' Go) for a Wait, the
// function given to Do or a pool's SubmitAndWait, with no SIO001, SIO002, SIO004 or SIO006
// operation, no context-aware I/O and no interface call on their paths. A
// Wait in a function that starts no goroutine, or starts a function value
// of unknown origin, joins unknown work and stays; a local variable
// assigned once from a func literal (argon2's go processSegment(…)) runs
// that literal. main and init are never
// request paths; _test.go files are only with Config.Tests.
package rules
