// Package registry makes request roots of what a package hands to
// routers: the registration calls (knowledge.Registrations, and the
// generated gRPC and connect-go service registrations), the program's own
// registration helpers (RegistrarFact), and what the run saw of them for
// the roots line (seen.Package's roots and registrations).
//
// A call to a router's registration method hands it handlers; resolve
// follows each handler argument to the functions that will run. Those
// functions are request roots whatever their type: a literal or a
// function of this package becomes a root here (reported inside it, as
// every root), another package's function is handed back to the analyzer
// (Registry's external, a Ref) to be reported at the argument with its
// paths.BlocksFact (its own package could not know it serves requests).
// What resolves to nothing is recorded with the reason.
//
// It knows no rule and no summary's items: which functions are roots, and
// why, is all it says; what they do is the analyzer's.
package registry
