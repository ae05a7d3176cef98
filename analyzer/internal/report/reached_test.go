package report

import (
	"testing"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// TestReachedText: a finding reported away from its roots' calls names
// one root, several, or the first three and a count of the rest.
func TestReachedText(t *testing.T) {
	r := func(n int) []paths.Reach {
		var rs []paths.Reach
		for i := range n {
			rs = append(rs, paths.Reach{Root: "H" + string(rune('a'+i)), Site: "/src/api/h.go:" + string(rune('1'+i)) + ":2"})
		}
		return rs
	}
	for _, c := range []struct {
		n    int
		want string
	}{
		{0, ""},
		{1, "; on the request path of Ha (h.go:1:2)"},
		{2, "; on 2 request paths: Ha (h.go:1:2), Hb (h.go:2:2)"},
		{5, "; on 5 request paths: Ha (h.go:1:2), Hb (h.go:2:2), Hc (h.go:3:2) and 2 more"},
	} {
		if got := reachedText(r(c.n)); got != c.want {
			t.Errorf("%d roots: %q, want %q", c.n, got, c.want)
		}
	}
}
