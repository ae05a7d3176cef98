// Package stdtrim loads packages with the Go distribution's function bodies
// left out, for analyzers that read only the standard library's types.
//
// syncio's analyzer returns at once on a package of the distribution: it
// judges standard-library calls at the caller, from its tables. go vet
// reads the standard library from export data for the same reason. Loaded
// from source with every body, the standard library was most of the
// standalone's live heap (it keeps every package of the graph until the
// analysis ends), so its files are parsed here without function bodies or
// comments, which go/types accepts as external declarations.
//
// The number tables of the distribution and of the module cache (code
// pages, Unicode, compression dictionaries), and their package-level
// tables of strings and constants (x/text's encodings, transpiled C's
// initialisers), are emptied too, their types kept (data.go): the
// analyzer reads dependencies' bodies for facts, but no element of a
// table. No file is parsed with object resolution, which
// only go/ast's old scopes needed. The package must not know the analyzer:
// what it may trim is argued from what a trimmed node can carry.
package stdtrim
