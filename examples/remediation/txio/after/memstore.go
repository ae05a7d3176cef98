package after

import (
	"context"
	"sync"
	"time"
)

// MemStore is an outbox in memory with SQLStore's semantics: claims in
// id order among the due pending rows, a lease that makes a claimed row
// due again when it runs out, and Retry and Dead fenced by the attempt
// count. The tests run the worker against it; SQLStore's SQL is not run
// by them (no database driver in this module).
type MemStore struct {
	mu     sync.Mutex
	now    func() time.Time
	rows   []*memRow // in id order
	status map[string]string
}

type memRow struct {
	id       int64
	orderID  string
	state    string // pending, sent, dead
	attempts int
	next     time.Time
	lastErr  string
}

// NewMemStore returns an empty outbox on the clock now.
func NewMemStore(now func() time.Time) *MemStore {
	return &MemStore{now: now, status: map[string]string{}}
}

// Add writes an outbox row for orderID and sets the order charging, as
// the Pay handler's transaction does.
func (m *MemStore) Add(orderID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rows = append(m.rows, &memRow{id: int64(len(m.rows) + 1), orderID: orderID, state: "pending", next: m.now()})
	m.status[orderID] = "charging"
}

// Claim implements Store.
func (m *MemStore) Claim(_ context.Context, lease time.Duration) (Claim, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for _, r := range m.rows {
		if r.state == "pending" && !r.next.After(now) {
			r.attempts++
			r.next = now.Add(lease)
			return Claim{ID: r.id, OrderID: r.orderID, Attempts: r.attempts}, true, nil
		}
	}
	return Claim{}, false, nil
}

// Done implements Store.
func (m *MemStore) Done(_ context.Context, c Claim) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rows[c.ID-1].state, m.rows[c.ID-1].lastErr = "sent", ""
	m.status[c.OrderID] = "paid"
	return nil
}

// Retry implements Store.
func (m *MemStore) Retry(_ context.Context, c Claim, delay time.Duration, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.rows[c.ID-1]; r.state == "pending" && r.attempts == c.Attempts {
		r.next, r.lastErr = m.now().Add(delay), reason
	}
	return nil
}

// Dead implements Store.
func (m *MemStore) Dead(_ context.Context, c Claim, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r := m.rows[c.ID-1]; r.state == "pending" && r.attempts == c.Attempts {
		r.state, r.lastErr = "dead", reason
		m.status[c.OrderID] = "payment_failed"
	}
	return nil
}

// Row reports a row's state, attempts and next due time, for tests and
// an operator's view.
func (m *MemStore) Row(id int64) (state string, attempts int, next time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.rows[id-1]
	return r.state, r.attempts, r.next
}

// Status reports an order's status.
func (m *MemStore) Status(orderID string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.status[orderID]
}
