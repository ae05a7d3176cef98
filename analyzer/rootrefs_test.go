package analyzer

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/syncio/syncio/analyzer/seen"
)

// TestDispatchBranches: functions of a handler's shape that the program
// only calls on the spot (directly, through an adapter or a conversion,
// or as the literal a function returns, in its own package or another)
// are roots counted apart from the handlers a reader counts; one that is
// registered, converted or stored anywhere, or is a ServeHTTP, stays a
// handler.
func TestDispatchBranches(t *testing.T) {
	t.Parallel()
	pkgs := seenPackages(t, cases.Run(t, Analyzer, "branches", "branches/api"))
	rep := seen.Merge([]*seen.Package{pkgs["branches"], pkgs["branches/api"]})
	got := map[string]string{}
	for _, r := range rep.Roots {
		name := r.Name
		if name == "func literal" {
			name += " " + filepath.Base(r.Pos)
		}
		got[name] = r.Kind
		if r.Kind == seen.KindCalled && r.CalledAt == "" {
			t.Errorf("%s: called, but no called_at", name)
		}
	}
	want := map[string]string{
		"branches.(*Server).handle":     seen.KindHandler,
		"branches.(*Server).handleA":    seen.KindCalled,
		"branches.(*Server).handleB":    seen.KindCalled,
		"branches.(*Server).plain":      seen.KindCalled,
		"func literal branches.go:86:9": seen.KindCalled, // login's
		"api.Manifest":                  seen.KindCalled,
		"branches.(*Server).listed":     seen.KindHandler,
		"branches.(*Server).converted":  seen.KindHandler,
		"branches.(*Server).stored":     seen.KindHandler,
		"api.Shared":                    seen.KindHandler,
		"api.Both":                      seen.KindHandler,
		"branches.hub.ServeHTTP":        seen.KindHandler,
		"func literal branches.go:39:9": seen.KindMiddleware, // withLog's
		"branches.(*Server).wrapped":    seen.KindHandler,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: kind %q, want %q", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("roots %v, want %d", got, len(want))
	}
	line := rep.Line(nil)
	if !strings.HasPrefix(line, "roots: 8 request handlers (net/http 8; by signature 8), plus 1 middleware or adapter that calls a handler it is given "+
		"and 5 functions of a handler's shape that the program only calls, never registers (dispatch branches): 14 request roots analysed;") {
		t.Errorf("line: %s", line)
	}
}
