// Package imports compiles; its test file's import block does not parse,
// which go build rejects even without tests.
package imports

// F does nothing.
func F() {}
