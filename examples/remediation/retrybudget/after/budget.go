package after

import (
	"sync"
	"sync/atomic"
)

// Budget caps the retries toward one dependency to a share of the
// requests made to it, as a token bucket: each request deposits Ratio
// tokens (up to Max), each retry spends one. Under a dependency that fails
// every call, retries settle at Ratio of the requests, plus the Max it
// starts with, whatever the attempts per request. Share one Budget among
// every caller of the dependency.
type Budget struct {
	ratio, max float64

	mu     sync.Mutex
	tokens float64
	denied atomic.Int64
}

// NewBudget returns a full budget: NewBudget(0.1, 10) allows retries for
// 10% of requests, and a burst of 10 retries.
func NewBudget(ratio, max float64) *Budget {
	return &Budget{ratio: ratio, max: max, tokens: max}
}

// Request records a first attempt.
func (b *Budget) Request() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tokens = min(b.max, b.tokens+b.ratio)
}

// Retry reports whether a retry may be made now, and spends its token.
// A refusal is counted: export Denied as a counter and alert on its rate,
// since it means the dependency is failing more than the budget covers.
func (b *Budget) Retry() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens < 1 {
		b.denied.Add(1)
		return false
	}
	b.tokens--
	return true
}

// Denied returns how many retries the budget refused.
func (b *Budget) Denied() int64 { return b.denied.Load() }
