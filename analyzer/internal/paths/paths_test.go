package paths

import (
	"fmt"
	"testing"
)

func op(rule string, i int) *Finding {
	return &Finding{Rule: rule, Chain: []string{fmt.Sprintf("pkg.Op%d", i)}, Sites: []string{fmt.Sprintf("f.go:%d:1", i)}}
}

// TestAddPathBounds: a summary names at most MaxOps operations per rule,
// the first MaxTerminals with their paths, and counts the rest.
func TestAddPathBounds(t *testing.T) {
	s := &Summary{}
	n := MaxOps + 3
	for i := range n {
		if !s.AddPath(op("SIO001", i)) {
			t.Fatalf("AddPath(op %d) reports no change", i)
		}
	}
	list := s.ByRule["SIO001"]
	if len(list) != MaxOps {
		t.Fatalf("%d paths kept, want MaxOps (%d)", len(list), MaxOps)
	}
	for i, f := range list {
		if want := i >= MaxTerminals; f.Ref != want {
			t.Errorf("path %d: Ref = %v, want %v", i, f.Ref, want)
		}
	}
	if got := s.Count("SIO001"); got != n {
		t.Errorf("Count = %d, want %d", got, n)
	}
	if s.AddPath(op("SIO001", 0)) || s.AddPath(op("SIO001", n-1)) {
		t.Error("adding a known operation again reports a change")
	}
	// A better path (under a lock) goes first, whenever it is found.
	held := op("SIO001", n)
	held.Lock = "mu"
	if !s.AddPath(held) || s.ByRule["SIO001"][0] != held {
		t.Error("a path under a lock is not first")
	}
}

func TestKeepIO(t *testing.T) {
	lockable := map[string]bool{"": true, "SIO001": true}
	blocking := op("SIO001", 1)
	file := op("SIO006", 2)
	underLock := op("", 3)
	underLock.Lock = "mu"
	plain := op("", 4)
	for _, c := range []struct {
		name  string
		paths []*Finding
		p     *Finding
		want  bool
	}{
		{"a lock no path has", []*Finding{blocking}, underLock, true},
		{"plain I/O beside a lockable path", []*Finding{blocking}, plain, false},
		{"plain I/O where no path is lockable", []*Finding{file}, plain, true},
	} {
		if got := KeepIO(c.paths, c.p, lockable); got != c.want {
			t.Errorf("%s: KeepIO = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestThroughCall(t *testing.T) {
	own := RecvLock + "c.mu"
	for _, c := range []struct {
		lock string
		by   Owner
		want string
	}{
		{own, OwnRecv, own},
		{own, OwnFresh, ""},
		{own, OwnOther, "c.mu"},
		{"mu", OwnFresh, "mu"},
	} {
		if got := ThroughCall(c.lock, c.by); got != c.want {
			t.Errorf("ThroughCall(%q, %d) = %q, want %q", c.lock, c.by, got, c.want)
		}
	}
}
