// Package join is the second phase of a package's analysis: the pending
// interface calls of request roots joined with the conversions that bind
// them, where both are seen.
//
// A handler usually reaches its database or storage through an interface
// (a field of type UserStore, a factory returning Storage) whose concrete
// type is wired in main or a router package that the handler's package does
// not import. Analysis runs bottom-up, one package at a time, so the
// handler's package cannot know the binding. Three package facts carry the
// two halves upwards until one package sees both:
//
//   - PendingFact: calls through an interface method made on a request path
//     (at a root's call, with the chain that leads to the interface call);
//   - ConvFact: the program's conversions of a concrete type to an
//     interface (assignment, composite-literal field, argument, return,
//     explicit conversion), each with the concrete methods that block;
//   - JoinedFact: the (root call, rule) pairs already reported, so that a
//     package above the one that joined a pair does not report it again.
//
// Every package joins the pending calls it sees (its own and its
// dependencies') with the conversions it sees and reports what is new, at
// the handler's call; what is new for a rule a package below already
// reported at that call is reported at the interface call it goes
// through instead, naming the request paths (relocate.go), so that a call
// gets one diagnostic per rule. A concrete type counts for an interface I.M when it
// was converted to I (the program really binds it there), or to an
// interface whose values are
// later converted to I (edges between interfaces are recorded too).
// Interfaces are named by import path and type name, because a fact cannot
// hold a types.Type from another package.
//
// The join knows what a pending call and a conversion are (paths'
// instances of dispatch's model) and the facts that carry them; what a
// binding leads to, which rules apply and how a finding is reported are
// the analyzer's, handed in as function values (Hooks), as dispatch.Walk
// is told what a payload leads to. A deferred SIO002 candidate (Dropped)
// travels with the pending calls and is decided by the rule (internal/rules'
// dropped.go), through Hooks.Decide.
//
// The first half is recorded here too, by a Recorder the analyzer hands
// what a function does (its summaries, other packages' facts, its
// tables): the conversions (conversions.go) and stores into slots
// (stores.go) as paths.Conv, and the func arguments of interface calls
// (args.go). So are the facts that say which slots request roots call
// (RootSlotsFact, slotroots.go) and the package facts of the packages
// below, read and carried for go vet (ReadBelow, CarriedFact). The join
// turns no body into items and judges no operation: the scanning layer
// and the rules stay the analyzer's.
//
// # Call resolution
//
// The rules (classify.go) turn operations and calls into items; call
// resolution (calls.go, internal/resolve, internal/join) says what a callee leads
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
//     Config.Tests, and so do test doubles in non-test files (testDouble in conversions.go:
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
//   - what is stored (holds.go, Holds; dispatch.Hold): an interface
//     call whose receiver is read from a field, a package variable, a
//     parameter or a call's result carries where it comes from
//     (paths.DynCall.Holds), and every program package records, as edges
//     in its ConvFact, where the values of its places of a followed
//     interface type come from: the concrete types stored there, other
//     places (a constructor's parameter kept in a field, a getter's
//     result, an interface method's result through the types converted
//     to the interface), nil, or an origin not followed. The walk
//     dispatches the call only to the types that reach it when every
//     store is seen; otherwise to every binding, and those not seen
//     stored there say so in the chain ("; not seen stored there"). A
//     dispatch to one stored type counts as no interface hop. A
//     dependency's package records no edges, so a place filled from a
//     dependency's result is not seen.
//   - callbacks through interfaces (args.go, the root's dyncallbacks.go): a func literal or
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
//   - stored func values (stores.go, the root's stored.go, resolve.Slots, resolve.Stored): a
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
//     stored into a slot a root below calls is a root (slotroots.go, RootSlotsFact):
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
package join
