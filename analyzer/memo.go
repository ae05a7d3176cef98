package analyzer

import (
	"go/token"

	"github.com/syncio/syncio/analyzer/internal/paths"
)

// Once-only callbacks: a function given to sync.(*Once).Do, or to a
// memoiser of the program's own (navidrome's singleton.GetInstance, which
// keeps one instance per type), runs once per process or key, not once
// per request. A client it builds is built once (no SIO004), and what it
// waits on, or the memoiser waits on while another caller constructs, is
// the first caller's cost only (no SIO005); so is a query there. Which
// parameters run once is resolve's (Memos, MemoFact); which rules that
// spares is the analyzer's.

// onceRules are the rules a once-only callback does not count for: all
// of them. What runs once per process (or key) is start-up work, at
// main's call or the first request's, not a request path's (issue 35);
// it stays I/O, so that a lock a caller holds across it is still seen.
var onceRules = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range Rules {
		m[r.ID] = true
	}
	return m
}()

// markOnce marks the items inside the given spans (the arguments given
// to once-only parameters) as once-only.
func markOnce(items []paths.Item, spans [][2]token.Pos) {
	for i := range items {
		for _, sp := range spans {
			if items[i].Pos >= sp[0] && items[i].Pos < sp[1] {
				items[i].Once = true
				break
			}
		}
	}
}
