package cause_test

import (
	"go/token"
	"reflect"
	"testing"

	"github.com/syncio/syncio/cmd/syncio/cause"
)

func at(file string, line int) token.Position {
	return token.Position{Filename: file, Line: line, Column: 1}
}

// TestSite: the cause is the chain's last hop in the program before it
// leaves it; an "also reaches" tail, a sibling directory whose name
// extends the module's, and the module cache are not the program.
func TestSite(t *testing.T) {
	prog := cause.Program{"/src/svc"}
	f := cause.Finding{Rule: "SIO001", Pos: at("/src/svc/h.go", 10), Chain: []cause.Hop{
		{at("/src/svc/h.go", 10), "calls store.Get"},
		{at("/src/svc/store/s.go", 5), "calls redis.Get"},
		{at("/root/go/pkg/mod/redis/pool.go", 80), "redis.Get dials"},
	}}
	if site, hop := prog.Site(f); site != at("/src/svc/store/s.go", 5) || hop != 1 {
		t.Errorf("Site = %v, %d; want store/s.go:5, hop 1", site, hop)
	}
	f.Chain[1].Pos = at("/src/svc2/store/s.go", 5)
	if _, hop := prog.Site(f); hop != -1 {
		t.Errorf("a hop in /src/svc2 counted as /src/svc's (hop %d)", hop)
	}
	f.Chain[1] = cause.Hop{Pos: at("/src/svc/store/s.go", 5), Message: "also reaches redis.Do"}
	if _, hop := prog.Site(f); hop != -1 {
		t.Errorf("an also-reaches tail taken for the chain's next hop (hop %d)", hop)
	}
}

// TestGroup: one rule, one cause and the same words there make a group;
// another rule, another lock at the same call, or a finding that is its
// own cause do not.
func TestGroup(t *testing.T) {
	prog := cause.Program{"/src/svc"}
	via := func(line int, rule, msg string) cause.Finding {
		return cause.Finding{Rule: rule, Pos: at("/src/svc/h.go", line), Chain: []cause.Hop{
			{at("/src/svc/h.go", line), "calls get"},
			{at("/src/svc/get.go", 3), msg},
		}}
	}
	fs := []cause.Finding{
		via(1, "SIO001", "Get blocks"),
		via(2, "SIO001", "Get blocks"),
		via(3, "SIO003", "Get blocks while a (locked at x.go:1) is held"),
		via(4, "SIO003", "Get blocks while b (locked at y.go:1) is held"),
		{Rule: "SIO001", Pos: at("/src/svc/h.go", 5), Chain: []cause.Hop{{at("/src/svc/h.go", 5), "Get blocks"}}},
		via(6, "SIO001", "Get blocks"),
	}
	want := [][]int{{0, 1, 5}, {2}, {3}, {4}}
	if got := prog.Group(fs); !reflect.DeepEqual(got, want) {
		t.Errorf("Group = %v, want %v", got, want)
	}
}

// TestReachedFrom: a finding the analyzer reported at an interface call
// away from its roots' calls lists those calls after its chain; they are
// no hop (the cause stays the chain's), and each is a request path.
func TestReachedFrom(t *testing.T) {
	prog := cause.Program{"/src/svc"}
	f := cause.Finding{Rule: "SIO001", Pos: at("/src/svc/api/notify.go", 23), Chain: []cause.Hop{
		{at("/src/svc/api/notify.go", 23), "calls s.N.Notify (api.Notifier, bound to *app.db in app.Routes)"},
		{at("/src/svc/app/db.go", 9), "database/sql.(*DB).Exec blocks"},
		{at("/src/svc/api/notify.go", 15), "on the request path of (*Signup).ServeHTTP, from this call"},
		{at("/src/svc/api/other.go", 7), "on the request path of Other, from this call"},
	}}
	if site, hop := prog.Site(f); site != at("/src/svc/app/db.go", 9) || hop != 1 {
		t.Errorf("Site = %v, %d; want app/db.go:9, hop 1 (a root's call taken for a hop)", site, hop)
	}
	if n := cause.Paths(f); n != 2 {
		t.Errorf("Paths = %d, want 2", n)
	}
	f.Chain = f.Chain[:2]
	if n := cause.Paths(f); n != 1 {
		t.Errorf("Paths of a finding at its root's call = %d, want 1", n)
	}
}
