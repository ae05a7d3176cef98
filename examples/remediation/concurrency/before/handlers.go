package before

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
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
}

// Quote starts one call per item, however many items and requests there
// are, on a context of their own (so that a client that gives up "does not
// waste the work"), and waits for all of them even after the client has
// gone.
func (q *Quotes) Quote(w http.ResponseWriter, r *http.Request) {
	items := r.URL.Query()["item"]
	prices := make([]float64, len(items))
	errs := make([]error, len(items))
	var wg sync.WaitGroup
	for i, item := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prices[i], errs[i] = q.Prices.Get(context.Background(), item)
		}()
	}
	wg.Wait() // syncio: SIO005
	var total float64
	for i := range items {
		if errs[i] != nil {
			http.Error(w, errs[i].Error(), http.StatusBadGateway)
			return
		}
		total += prices[i]
	}
	_, _ = w.Write([]byte(strconv.FormatFloat(total, 'f', 2, 64)))
}
