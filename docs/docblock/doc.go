// Package docblock finds the code blocks of a Markdown document that tests
// run verbatim, so the commands a user copies from the docs are the ones
// the tests prove, and cannot drift from them.
//
// A tested block is a fenced code block preceded by an HTML comment naming
// it, which Markdown renders as nothing:
//
//	<!-- block: tools-run -->
//	```sh
//	bin/syncio ./...
//	```
package docblock
