package after

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"
)

// Client calls the pricing service. It is the one layer that retries:
// the service and the handler above it pass its errors up, so a request
// costs at most Attempts calls to the dependency, not Attempts to the
// power of the layers.
type Client struct {
	HTTP     *http.Client
	URL      string
	Budget   *Budget       // shared by every caller of the pricing service
	Attempts int           // calls per request, the first included
	Base     time.Duration // the cap of the first pause; it doubles after each attempt
	Max      time.Duration // the cap of any pause

	jitter func(limit time.Duration) time.Duration // rand.N; tests fix it
}

// errRetryable marks a failure another attempt may fix: a 5xx, a 429, a
// transport error. A 4xx is the caller's, and retrying repeats it.
var errRetryable = errors.New("retryable")

// Price fetches one price, retrying within the budget and the caller's
// deadline.
func (c *Client) Price(ctx context.Context, id string) (string, error) {
	c.Budget.Request()
	for attempt := 1; ; attempt++ {
		v, err := c.get(ctx, id)
		if err == nil || !errors.Is(err, errRetryable) || attempt >= c.Attempts {
			return v, err
		}
		pause := c.pause(attempt)
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < pause {
			return "", fmt.Errorf("%w (no time left to retry)", err)
		}
		if !c.Budget.Retry() {
			return "", fmt.Errorf("%w (retry budget spent)", err)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", fmt.Errorf("%w (gave up waiting to retry: %w)", err, ctx.Err())
		case <-t.C:
		}
	}
}

// pause draws the pause after the given attempt in
// [0, min(Max, Base·2^(attempt-1))]: full jitter, so that callers that
// failed together do not come back together.
func (c *Client) pause(attempt int) time.Duration {
	limit := c.Base
	for i := 1; i < attempt && limit < c.Max; i++ {
		limit *= 2
	}
	limit = min(limit, c.Max)
	if c.jitter != nil {
		return c.jitter(limit)
	}
	return rand.N(limit + 1)
}

func (c *Client) get(ctx context.Context, id string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+"/prices/"+id, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", err // the caller's context ended: not worth a retry
		}
		return "", fmt.Errorf("pricing: %w: %w", errRetryable, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
		body, err := io.ReadAll(resp.Body)
		return string(body), err
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return "", fmt.Errorf("pricing: %s: %w", resp.Status, errRetryable)
	default:
		return "", fmt.Errorf("pricing: %s", resp.Status)
	}
}

// Service quotes an order. It does not retry: its client does.
type Service struct{ Prices *Client }

// Quote prices one item.
func (s *Service) Quote(ctx context.Context, id string) (string, error) {
	return s.Prices.Price(ctx, id)
}

// Handler serves quotes. It does not retry either, and bounds the whole
// request: the client's retries fit in what is left of it.
type Handler struct {
	Quotes  *Service
	Timeout time.Duration
	Log     *slog.Logger
}

// Quote answers one quote.
func (h *Handler) Quote(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), h.Timeout)
	defer cancel()
	v, err := h.Quotes.Quote(ctx, r.PathValue("id"))
	if err != nil {
		h.Log.WarnContext(ctx, "quote failed", "err", err) // the details stay in the log, not in the answer
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, `{"error":"pricing unavailable","code":"upstream"}`)
		return
	}
	_, _ = io.WriteString(w, v)
}
