// Package resolve follows a value handed to a router to the functions that
// will run when a request comes: a func literal, a function or method
// value, a conversion (http.HandlerFunc(x)), a local or package variable
// assigned once or more, the result of a call to a function of the same
// package (followed into its return statements, so that a method that
// returns a handler literal gives that literal), and the ServeHTTP
// method of a concrete http.Handler. What it cannot follow (a parameter,
// a struct field, an interface value, a call through a func value) it
// names in words, for the roots report.
//
// Slots (slots.go) name the places a func value is kept in until a
// request calls it (a struct field of a non-generic package-level type, a
// package variable, a container in one), say which slots a call reads
// from and whether from one struct value or a container's element, and
// find the func values a package stores into them. Stored (stored.go)
// holds a package's stores and the parameters its functions store into
// slots, a fixpoint exported as StoresFact, so that a caller's argument
// to such a parameter is a store too.
//
// Sync (sync.go) says which func-typed parameters a function calls before
// it returns, so that a literal or function value passed there runs on the
// caller's path: the package's own functions by a fixpoint, other packages'
// by CallsFact, the standard library's from knowledge's table.
//
// Memos (memo.go) say which func parameters run once per value or key
// rather than per call: sync.(*Once).Do's, and a memoiser's (a
// singleton or cache loader of the program, MemoFact).
//
// Roots (roots.go) say which functions serve requests by their signature
// alone: a framework's handler shape (RootKind names the framework, which
// decides how a fix names the request's context), a gRPC method of a type
// embedding a generated Unimplemented*Server, or a declaration the
// analyzer's directive marks (DeclRoot is told so).
//
// Adapters (adapters.go) are the functions that return a request handler
// calling one of their func parameters, and the func types whose
// ServeHTTP, or a root, calls their value: what is passed there, or
// converted to such a type, serves requests (AdapterFact).
//
// Calls through interfaces, and through the func values stored in
// slots, are followed across packages by internal/dispatch, which names a
// slot by SlotName.
//
// It knows no rule: the analyzer decides which functions are roots by
// what is registered, passed to an adapter or named by the
// configuration, and what each root's paths break. It imports only named,
// knowledge and regions (a memoiser holds a lock).
package resolve
