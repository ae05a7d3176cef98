package after

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/syncio/syncio/api/pool"
)

// App serves profiles. Every request needs one of Pool's workers.
type App struct {
	Pool       *pool.Pool
	Client     *http.Client
	ProfileURL string
}

// Admit holds a worker for the rest of the request, or sheds the request
// with 503 when the admission queue is full.
func (a *App) Admit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := a.Pool.Acquire(r.Context()); err != nil {
			if errors.Is(err, pool.ErrQueueFull) {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "server busy", http.StatusServiceUnavailable)
			}
			return
		}
		defer a.Pool.Release()
		next.ServeHTTP(w, r)
	})
}

// Profile hands its worker back while the downstream call is in flight.
// W workers now serve as many concurrent requests as arrive; the wait is
// bounded by the request's context.
func (a *App) Profile(w http.ResponseWriter, r *http.Request) {
	var body []byte
	err := a.Pool.Await(r.Context(), func(ctx context.Context) error {
		var err error
		body, err = a.fetch(ctx)
		return err
	})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write(body)
}

func (a *App) fetch(ctx context.Context) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.ProfileURL, nil)
	if err != nil {
		return nil, fmt.Errorf("profile request: %w", err)
	}
	resp, err := a.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
