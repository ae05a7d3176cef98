package driver

import (
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/seen"
)

// TestGinNote: calls left undecided are said once, with where the first
// is and both values of the flag; none, nothing.
func TestGinNote(t *testing.T) {
	if n := ginNote(seen.Report{}); n != "" {
		t.Errorf("no undecided call: %q, want nothing", n)
	}
	n := ginNote(seen.Report{GinUndecided: []string{"api/a.go:3:2", "api/b.go:5:1"}})
	for _, want := range []string{"2 calls give a *gin.Context", "first at api/a.go:3:2", "-gin-context-fallback=false", "not reported"} {
		if !strings.Contains(n, want) {
			t.Errorf("note %q lacks %q", n, want)
		}
	}
}
