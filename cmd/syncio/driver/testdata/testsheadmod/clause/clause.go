// Package clause compiles; its test file declares another package, which
// go build rejects even without tests.
package clause

// F does nothing.
func F() {}
