// Package dispatch follows calls through interfaces, and through func
// values stored in slots, across packages.
//
// Its model (dispatch.go) is an interface call on a path (DynCall) and at
// a root's call (PendingCall), a conversion of a concrete type to an
// interface (Conv) and where a composite literal makes one
// (CompositeConversions), which interfaces are followed at all
// (IfaceKey), where a call's receiver and the program's places of
// interface type get their values (Hold, DynCall.Holds, read back by
// Bindings.Held), and the index the join reads (Bindings, built by
// Index).
// What a bound method or a func argument does is the analyzer's summary,
// a type parameter that dispatch carries and never reads.
//
// The walk (walk.go) follows one interface call through the bindings to
// the paths behind it: the concrete methods bound to the interface (or to
// one converted to it; only the types stored where the receiver is read,
// when every store is seen), the funcs stored in a slot, nested interface calls
// hop by hop, and the call's func arguments into the bindings that call
// them on the spot, within its bounds (hops, bindings visited, funcs per
// slot); a call a bound cuts after some of what it may run is recorded
// with the calls through a slot followed to none (Bindings.Unfollowed,
// Unfollowed.Partial), for the roots report. The analyzer tells it, as function values, what only the
// analyzer knows: what a summary leads to (its own paths, its interface
// calls, whether it hands its context to something unseen) and which
// paths a caller's lock holds.
//
// It knows no rule: what a path breaks, and the join that applies the
// rules to the walk's paths and reports, are the analyzer's. Slots are
// resolve's (the walk names one by resolve.SlotName); dispatch imports
// only knowledge (the libraries whose interfaces are not followed) and
// resolve.
package dispatch
