// Package ext compiles; its external test package does not.
package ext

// F does nothing.
func F() {}
