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
package stdtrim
