package wrapped

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/syncio/syncio/api/pool"
)

// App serves profiles. Every request needs one of Pool's workers, taken
// by an admission middleware as in ../before.
type App struct {
	Pool       *pool.Pool
	Client     *http.Client
	ProfileURL string
}

// Profile looks asynchronous: it hands its worker back and the call runs
// on another worker, taken with Offload ahead of new arrivals. But that
// worker is blocked for the whole call, so one worker is still held per
// in-flight request, exactly as in ../before.
func (a *App) Profile(w http.ResponseWriter, r *http.Request) {
	var body []byte
	err := a.Pool.Offload(r.Context(), func(ctx context.Context) error {
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
