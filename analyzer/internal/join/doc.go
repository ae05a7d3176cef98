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
// the handler's call. A concrete type counts for an interface I.M when it
// was converted to I (the program really binds it there), or to an
// interface whose values are
// later converted to I (edges between interfaces are recorded too).
// Interfaces are named by import path and type name, because a fact cannot
// hold a types.Type from another package.
//
// The join knows what a pending call and a conversion are (paths'
// instances of resolve's model) and the facts that carry them; what a
// binding leads to, which rules apply and how a finding is reported are
// the analyzer's, handed in as function values (Hooks), as resolve.Walk
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
package join
