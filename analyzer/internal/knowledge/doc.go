// Package knowledge is what the analyzer knows about libraries, recognised
// by import path and type name: which of their calls block, build clients,
// open transactions or run callbacks. It knows no rule and no call graph;
// the units above it (regions, the analyzer's rules) ask it.
//
// The call tables are data, not code, in one format with one parser
// (ParseRow, ParseTable): blocking.txt, one row per context-less call with
// its replacement (SIO001), and calls.txt, rows of the other kinds (Kind):
// constructors of clients with their own connections (SIO004, a key may
// end in "*" for every function of a package whose name starts so,
// MatchPattern), waits (SIO005), file I/O (SIO006), context-aware I/O,
// and calls that end the process (exit rows: a branch ending in one is no
// request path); and the tables' own kinds, which a user's entry cannot
// give: the standard library's callbacks (callback rows: the func
// parameters a function calls before it returns, StdCallbacks, and those
// it runs once, StdOnce) and the calls that start their function
// arguments in goroutines (go rows, GoStarters), with the waits judged by
// the work they join (a wait row's joins field, JoinWaits); and the query
// methods judged at the caller by the chain they end: dbx's finishers
// (finisher rows, DbxFinisher) and gorm's Migrator methods that run no
// query (noquery rows, GormMigratorMethod); and net/http's shortcuts
// whose fix rewrites them into NewRequestWithContext and Do (a blocking
// row's request field, HTTPShortcuts).
// Both are embedded and parsed once (BuiltinRows), every row with the
// evidence for it. A user's blocking setting is a row of the same format.
// routes.txt, in the same format and read by the same parser, holds the
// routers' registration calls (route rows, a table's own kind: the
// handler argument and whether the arguments after it are handlers too;
// Registrations, RegistrationOf), from which docs/frameworks.md's
// registration table is generated.
//
// What a row cannot state stays Go in the analyzer, named: a blocking
// row's routed field names a hook (RoutedHooks) that judges the call's
// receiver or arguments (go-redis v7's stored receiver, OSS options,
// Qiniu's input), implemented by dataflow.RoutedHooks.
//
// Besides the tables it holds, as Go: the generated gRPC and connect-go
// registrations recognised by shape (ServiceOf, routes.go), the
// frameworks' import paths (frameworks.go), gorm's and dbx's receiver
// types, and which packages are the Go distribution's (std.go).
package knowledge
