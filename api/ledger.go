package api

import (
	"container/list"
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/syncio/syncio/api/activity/order"
)

// ledgerSize is how many confirmed order IDs the in-process order routes
// remember. A confirmed order costs some 300 bytes here, so the ledger stays
// under about 5 MB. Past it the oldest confirmed IDs are forgotten: posting
// one of them again runs a new order with a new receipt (nothing stored is
// lost or overwritten, but that repeat is no longer idempotent). The
// Temporal route keeps its ledger in Temporal instead (durableOrder).
const ledgerSize = 16384

// orderDigest identifies an order's content: a repeated ID with the same
// digest is a retry, with another digest a conflict.
type orderDigest [sha256.Size]byte

// digestOrder hashes the client's fields of o. json.Marshal of a struct is
// deterministic, so equal orders hash equal however their JSON was spaced.
func digestOrder(o order.Order) orderDigest {
	o.Run = ""
	b, _ := json.Marshal(o) // an Order always marshals
	return sha256.Sum256(b)
}

// ledgerEntry is one order ID's current run. done is closed when the run
// ends; conf and err are its result, readable after done.
type ledgerEntry struct {
	digest orderDigest
	done   chan struct{}
	conf   order.Confirmation
	err    error
}

// ledger makes the in-process order routes idempotent per client order ID:
// the first request with an ID runs the order; a request with the same ID
// and body while it runs, or after it was confirmed, gets the same result;
// one with the same ID and another body is a conflict. A failed run is
// forgotten when it ends, so a retry after a failure runs again (with its
// own run key and so its own receipt).
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
func (l *ledger) begin(id string, d orderDigest) (e *ledgerEntry, owner, conflict bool) {
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
