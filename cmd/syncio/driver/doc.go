// Package driver is the command-line driver behind cmd/syncio: it loads
// packages, runs one go/analysis Analyzer over them with
// golang.org/x/tools/go/analysis/checker, prints the findings like
// singlechecker does and can also write them as SARIF 2.1.0.
//
// It keeps singlechecker's contract so that scripts and go vet see the same
// tool: the vet protocol (-V=full, -flags and a single *.cfg argument) and
// -fix/-diff are handed to singlechecker itself, which owns unitchecker and
// the fix applier. Everything else runs here, because singlechecker gives no
// access to the diagnostics (needed for SARIF) and reports a package that
// fails to type-check without naming it.
//
// Exit codes: 0 no findings, 3 findings, 1 when a package could not be
// loaded or analysed (the other packages are still analysed and their
// findings printed; 1 wins over 3), 2 for a usage error. With -json the
// exit code is 0 or 1, as in singlechecker; -exit-zero turns 3 into 0
// ("report, don't block") and leaves 1 alone, because an incomplete run is
// not a clean one. -partial leaves the packages that did not load out of
// the exit code (they are still named on stderr and in SARIF).
//
// Each finding's Diagnostic.URL (the syncio analyzer sets its rule's fix
// page) is the "url" of -json (jsonout.go: singlechecker's JSON drops it)
// and, through Config.Catalogue, the rule's helpUri in SARIF; the text
// output names it in closing lines, one per rule (fixpages.go), leaving
// the finding lines as singlechecker prints them.
//
// -baseline FILE gates on new findings only (baseline.go): findings are
// keyed without line numbers, so moving code does not revive them.
//
// A //go:embed pattern that matches no file counts as a load error too,
// though go/packages only reports it when it builds export data.
//
// A bad flag is one line (the error and a pointer to -help), not the flag
// package's error followed by the usage text; under go vet it is reported
// once, before unitchecker would print its usage text for every package.
package driver
