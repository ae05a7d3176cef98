package before

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// retry makes up to three attempts, pausing between them.
func retry(pause time.Duration, fn func() error) error {
	var err error
	for range 3 {
		if err = fn(); err == nil {
			return nil
		}
		time.Sleep(pause)
	}
	return err
}

// Client calls the pricing service, and retries.
type Client struct {
	HTTP  *http.Client
	URL   string
	Pause time.Duration
}

// Price fetches one price.
func (c *Client) Price(ctx context.Context, id string) (string, error) {
	var body []byte
	err := retry(c.Pause, func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+"/prices/"+id, nil)
		if err != nil {
			return err
		}
		resp, err := c.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("pricing: %s", resp.Status)
		}
		body, err = io.ReadAll(resp.Body)
		return err
	})
	return string(body), err
}

// Service quotes an order, and retries the client.
type Service struct{ Prices *Client }

// Quote prices one item.
func (s *Service) Quote(ctx context.Context, id string) (string, error) {
	var v string
	err := retry(s.Prices.Pause, func() (err error) {
		v, err = s.Prices.Price(ctx, id)
		return err
	})
	return v, err
}

// Handler serves quotes, and retries the service.
type Handler struct{ Quotes *Service }

// Quote answers one quote.
func (h *Handler) Quote(w http.ResponseWriter, r *http.Request) {
	var v string
	err := retry(h.Quotes.Prices.Pause, func() (err error) { // syncio: SIO005
		v, err = h.Quotes.Quote(r.Context(), r.PathValue("id")) // syncio: SIO005
		return err
	})
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, `{"error":"pricing unavailable","code":"upstream"}`)
		return
	}
	_, _ = io.WriteString(w, v)
}
