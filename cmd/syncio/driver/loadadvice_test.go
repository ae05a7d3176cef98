package driver

import (
	"strings"
	"testing"
)

// TestLoadAdvice: the go command's errors that stop a new user before any
// package loads get the way out, not only the cause.
func TestLoadAdvice(t *testing.T) {
	for msg, want := range map[string]string{
		"go: go.mod requires go >= 1.27 (running go 1.26.8; GOTOOLCHAIN=local)":                       "install Go 1.27 or newer and put it first on PATH (or unset GOTOOLCHAIN=local",
		"go: go.mod requires go >= 1.27.1 (running go 1.26.8)":                                        "the module needs Go 1.27.1 and syncio runs the go command it finds, Go 1.26.8",
		"go: download go1.27.0 for linux/amd64: toolchain not available":                              "install that Go version and put it first on PATH, or set GOTOOLCHAIN",
		"pattern ./...: directory prefix . does not contain main module or its selected dependencies": "run syncio in the module's directory",
		"go: go.mod file not found in current directory or any parent directory":                      "run syncio in the module's directory",
	} {
		if got := withAdvice(msg); !strings.HasPrefix(got, msg+"; ") || !strings.Contains(got, want) {
			t.Errorf("withAdvice(%q) = %q, want the message and %q", msg, got, want)
		}
	}
	if got := withAdvice("undefined: foo"); got != "undefined: foo" {
		t.Errorf("an error with no advice became %q", got)
	}
}
