package after

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"
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
	inflight *Limiter
}

// NewQuotes returns a Quotes that makes at most limit price calls at once,
// and sheds a request that waited 100 ms for a slot without getting one.
func NewQuotes(p *Prices, limit int64) *Quotes {
	return &Quotes{Prices: p, inflight: NewLimiter(limit, 100*time.Millisecond)}
}

type priced struct {
	price float64
	err   error
}

// Quote waits briefly for a slot before each call, answers 503 with
// Retry-After when none frees up, and gives up, slots and all, when the
// client goes away.
func (q *Quotes) Quote(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	items := r.URL.Query()["item"]
	// Buffered for every item, so a call that finishes after the handler
	// returned never blocks its goroutine.
	results := make(chan priced, len(items))
	for _, item := range items {
		if err := q.inflight.Acquire(ctx); err != nil {
			if errors.Is(err, ErrShed) {
				w.Header().Set("Retry-After", "1")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = io.WriteString(w, `{"error":"price service at its limit, retry later","code":"overloaded"}`)
			}
			return // shed, or the client left while we waited for a slot
		}
		go func() {
			defer q.inflight.Release()
			price, err := q.Prices.Get(ctx, item)
			results <- priced{price, err}
		}()
	}
	var total float64
	for range items {
		select {
		case res := <-results:
			if res.err != nil {
				fail(w, r, http.StatusBadGateway, "upstream", res.err)
				return
			}
			total += res.price
		case <-ctx.Done():
			return
		}
	}
	_, _ = w.Write([]byte(strconv.FormatFloat(total, 'f', 2, 64)))
}

// fail logs err and answers with a generic JSON error: err may name a
// downstream's URL or a host, which the client must not see.
func fail(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	slog.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "code", code, "err", err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status), "code": code})
}
