package after

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
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
		fail(w, r, http.StatusBadGateway, "upstream", err)
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

// fail logs err and answers with a generic JSON error: err may name a
// downstream's URL or a host, which the client must not see.
func fail(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	slog.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "code", code, "err", err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status), "code": code})
}
