// Package config is what a user may choose: the rule catalogue (which
// rules exist, which are opt-in, their docs pages), the Config an analyzer
// runs with (the enabled rules, the call tables read from knowledge's
// built-in rows plus the user's, allowed calls, extra roots, the docs base)
// and the two ways to build one, Settings (golangci-lint's keys) and the
// command-line flags, through one set of parsers.
//
// It holds data and its validation only: it knows no call graph, no pass
// and no finding. Matching the roots it names against a package's
// functions is the analyzer's (roots.go), which sees the types. Package
// analyzer re-exports Config, Settings, Replacement and the catalogue
// under their public names.
package config
