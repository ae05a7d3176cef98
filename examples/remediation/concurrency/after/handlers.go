package after

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"golang.org/x/sync/semaphore"
)

// Prices is a client of the downstream price service.
type Prices struct {
	Client *http.Client
	URL    string
}

// Get fetches the price of one item.
func (p *Prices) Get(ctx context.Context, item string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+"/"+item, nil)
	if err != nil {
		return 0, fmt.Errorf("price %s: %w", item, err)
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("price %s: %w", item, err)
	}
	defer resp.Body.Close()
	var price float64
	if err := json.NewDecoder(resp.Body).Decode(&price); err != nil {
		return 0, fmt.Errorf("price %s: %w", item, err)
	}
	return price, nil
}

// Quotes prices a basket of items.
type Quotes struct {
	Prices *Prices
	// inflight bounds the calls to the price service across ALL requests:
	// the limit is the downstream's capacity, not one request's.
	inflight *semaphore.Weighted
}

// NewQuotes returns a Quotes that makes at most limit price calls at once.
func NewQuotes(p *Prices, limit int64) *Quotes {
	return &Quotes{Prices: p, inflight: semaphore.NewWeighted(limit)}
}

type priced struct {
	price float64
	err   error
}

// Quote waits for a slot before each call and gives up, slots and all,
// when the client goes away.
func (q *Quotes) Quote(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	items := r.URL.Query()["item"]
	// Buffered for every item, so a call that finishes after the handler
	// returned never blocks its goroutine.
	results := make(chan priced, len(items))
	for _, item := range items {
		if err := q.inflight.Acquire(ctx, 1); err != nil {
			return // the client left while we waited for a slot
		}
		go func() {
			defer q.inflight.Release(1)
			price, err := q.Prices.Get(ctx, item)
			results <- priced{price, err}
		}()
	}
	var total float64
	for range items {
		select {
		case res := <-results:
			if res.err != nil {
				http.Error(w, res.err.Error(), http.StatusBadGateway)
				return
			}
			total += res.price
		case <-ctx.Done():
			return
		}
	}
	_, _ = w.Write([]byte(strconv.FormatFloat(total, 'f', 2, 64)))
}
