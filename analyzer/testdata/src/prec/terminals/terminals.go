// Package terminals covers every distinct blocking operation reached from
// one root call (precision class 6 of issue 10): one diagnostic per rule,
// the rule's other operations listed in it ("also reaches").
package terminals

import (
	"net/http"
	"sync"

	"prec/terminals/dep"
	"prec/terminals/store"
)

var mu sync.Mutex

func Load(w http.ResponseWriter, r *http.Request) {
	_ = dep.Load("http://x") // want `^Load calls dep.Load → database/sql.\(\*DB\).Query, which blocks without the request context; use db.QueryContext\(ctx, ...\); also reaches dep.Load → net/http.Get at dep.go:21:12 \(SIO001\)$`
}

func Twice(w http.ResponseWriter, r *http.Request) {
	dep.Twice() // want `^Twice calls dep.Twice → dep.get → net/http.Get, which blocks without the request context; use [^;]*\(SIO001\)$`
}

func Many(w http.ResponseWriter, r *http.Request) {
	dep.Many() // want `^Many calls dep.Many → dep.Load → database/sql.\(\*DB\).Query, .*; also reaches dep.Many → dep.Load → net/http.Get at dep.go:21:12, dep.Many → store.Both → database/sql.\(\*DB\).Query at store.go:13:9, dep.Many → store.Both → net.Dial at store.go:14:9 \(SIO001\)$` `^Many calls dep.Many → time.Sleep, which waits.*\(SIO005\)$`
}

// Locked: the lock is held across both operations: SIO003 lists both too.
func Locked(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	store.Both() // want `also reaches store.Both → net.Dial at store.go:14:9 \(SIO001\)$` `^Locked calls store.Both → database/sql.\(\*DB\).Query, which blocks without the request context while mu \(locked at terminals.go:[0-9]+\) is held; .*; also reaches store.Both → net.Dial at store.go:14:9 \(SIO003\)$`
}
