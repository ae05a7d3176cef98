// Package terminals covers every distinct blocking operation reached from
// one root call (precision class 6 of issue 10): one diagnostic per rule,
// the rule's other operations listed in it ("also reaches"), remote calls
// first, four named and the count of the others (issue 21 item 5).
package terminals

import (
	"net/http"
	"sync"

	"prec/terminals/dep"
	"prec/terminals/store"
	"prec/terminals/wide"
)

var mu sync.Mutex

func Load(w http.ResponseWriter, r *http.Request) {
	_ = dep.Load("http://x") // want `^Load calls dep.Load → net/http.Get, which blocks without the request context; use http.NewRequestWithContext\(ctx, http.MethodGet, url, nil\) and http.DefaultClient.Do\(req\); also reaches dep.Load → database/sql.\(\*DB\).Query at dep.go:20:15 \(SIO001\)$`
}

func Twice(w http.ResponseWriter, r *http.Request) {
	dep.Twice() // want `^Twice calls dep.Twice → dep.get → net/http.Get, which blocks without the request context; use [^;]*\(SIO001\)$`
}

func Many(w http.ResponseWriter, r *http.Request) {
	dep.Many() // want `^Many calls dep.Many → dep.Load → net/http.Get, .*; also reaches dep.Many → store.Both → net.Dial at store.go:14:9, dep.Many → net.LookupHost at dep.go:42:9, dep.Many → dep.Load → database/sql.\(\*DB\).Query at dep.go:20:15, and 2 more \(SIO001\)$` `^Many calls dep.Many → time.Sleep, which waits.*\(SIO005\)$`
}

// Wide: eighteen operations behind one call, the remote one last in the
// source: it is named first, and the message counts the fourteen it does
// not name, two of them past what the fact names.
func Wide(w http.ResponseWriter, r *http.Request) {
	wide.Wide() // want `^Wide calls wide.Wide → net/http.Get, which blocks without the request context; .*; also reaches wide.Wide → database/sql.\(\*DB\).Query at wide.go:16:9, wide.Wide → database/sql.\(\*DB\).Query at wide.go:17:9, wide.Wide → database/sql.\(\*DB\).Query at wide.go:18:9, and at least 14 more \(SIO001\)$`
}

// Locked: the lock is held across both operations: SIO003 lists both too.
func Locked(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	store.Both() // want `also reaches store.Both → database/sql.\(\*DB\).Query at store.go:13:9 \(SIO001\)$` `^Locked calls store.Both → net.Dial, which blocks without the request context while mu \(locked at terminals.go:[0-9]+\) is held; .*; also reaches store.Both → database/sql.\(\*DB\).Query at store.go:13:9 \(SIO003\)$`
}
