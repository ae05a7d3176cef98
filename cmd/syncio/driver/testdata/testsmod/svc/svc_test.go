package svc

import "testing"

// A test that no longer compiles: the run must not fail for it while
// tests are not analysed.
func TestHandler(t *testing.T) {
	var n int = "not a number"
	Handler(n)
}
