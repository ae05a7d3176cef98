// Command syncio reports blocking I/O and uncancellable waits on HTTP
// request paths (see the analyzer package and docs/rules).
//
// Usage:
//
//	syncio [flags] packages             text findings on stderr, exit 3 if any,
//	                                    then one line per rule naming its fix page
//	syncio -sarif out.sarif ./...       also write SARIF 2.1.0 (GitHub code scanning)
//	syncio -json ./...                  JSON on stdout, as singlechecker, with each fix page as "url"
//	syncio -docs URL ./...              link the fix pages under URL (default: the repository's docs/)
//	syncio -fix [-diff] ./...           apply or show the suggested fixes
//	syncio -exit-zero ./...             report findings but exit 0
//	syncio -roots-report roots.json ./...  list the request roots and route registrations seen
//	syncio -strict-roots ./...          exit 4 when a package's routes led to no request root
//	go vet -vettool="$(command -v syncio || echo /syncio-not-installed)" ./...
//
// A package that fails to load or type-check is reported on one line naming
// the package and the error; the other packages are still analysed, and the
// exit code is then 1. Every run ends with the roots line on stderr: the
// request handlers found, by framework and how, the middleware and
// dispatch branches analysed as roots besides them, and the registration
// calls whose handler could not be followed. Run syncio -h for every flag.
package main
