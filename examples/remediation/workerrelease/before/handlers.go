package before

import (
	"errors"
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

// Profile keeps its worker for the whole downstream round trip: with W
// workers and a latency L, the service never does more than W/L requests
// per second, however idle its CPUs are.
func (a *App) Profile(w http.ResponseWriter, r *http.Request) {
	resp, err := a.Client.Get(a.ProfileURL) // syncio: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(w, resp.Body)
}
