package ext_test

import (
	"testing"

	"example.com/testsmod/ext"
)

// An external test that calls a function that is gone and has a syntax
// error in its body: with tests off, go list reads only this file's
// header (for its name and imports) and nothing parses the rest.
func TestF(t *testing.T) {
	ext.Gone()
	if {
	}
}
