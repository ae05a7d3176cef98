package api

import (
	"container/list"
	"sync"

	"github.com/syncio/syncio/api/activity/order"
)

// ledgerSize is how many confirmed order IDs the in-process order routes
// keep in memory. A confirmed order costs some 300 bytes here, so the ledger
// stays under about 5 MB. Past it the oldest confirmed IDs are dropped: a
// repeat of one of them is answered from its record in storage instead,
// the same answer at the cost of one read.
const ledgerSize = 16384

// ledgerEntry is one order ID's current run. done is closed when the run
// ends; conf and err are its result, readable after done.
type ledgerEntry struct {
	digest string // order.Digest of the posted order
	done   chan struct{}
	conf   order.Confirmation
	err    error
}

// ledger joins the in-process order routes' requests for one client order
// ID within this process: the first request with an ID finds its answer
// (its record in storage, or a run of the order); a request with the same
// ID and body meanwhile, or after it was confirmed, gets the same answer;
// one with the same ID and another body is a conflict. A failed run is
// forgotten when it ends, so a retry after a failure runs again (with its
// own run key and so its own receipt). The ledger is a cache: what an
// order ID was answered is its record in storage (order.Record), which
// outlives the process and is shared with the Temporal route.
type ledger struct {
	mu        sync.Mutex
	entries   map[string]*ledgerEntry
	confirmed *list.List // of order IDs, oldest first
	max       int
}

func newLedger(max int) *ledger {
	return &ledger{entries: map[string]*ledgerEntry{}, confirmed: list.New(), max: max}
}

// begin looks id up. It returns the entry for id and whether the caller
// owns it (must run the order and call finish), or conflict when id is
// known with another digest.
func (l *ledger) begin(id, d string) (e *ledgerEntry, owner, conflict bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e, ok := l.entries[id]; ok {
		if e.digest != d {
			return nil, false, true
		}
		return e, false, false
	}
	e = &ledgerEntry{digest: d, done: make(chan struct{})}
	l.entries[id] = e
	return e, true, false
}

// finish records the owner's result and wakes the waiters. A confirmed run
// stays, up to max entries; a failed one is forgotten.
func (l *ledger) finish(id string, e *ledgerEntry, conf order.Confirmation, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e.conf, e.err = conf, err
	close(e.done)
	if err != nil {
		delete(l.entries, id)
		return
	}
	l.confirmed.PushBack(id)
	for l.confirmed.Len() > l.max {
		oldest := l.confirmed.Remove(l.confirmed.Front()).(string)
		delete(l.entries, oldest)
	}
}
