package after

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// Store is a client of a downstream key-value service.
type Store struct {
	Client *http.Client
	URL    string
}

// Load fetches one value.
func (s *Store) Load(ctx context.Context, key string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+"/"+key, nil)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", key, err)
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", key, err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// Handler serves values from the Store.
type Handler struct {
	Store *Store
	Log   *slog.Logger
	// Warming bounds the warm-ups running at once: each is a detached
	// goroutine holding a connection to the store, and a burst of Warm
	// requests must not start thousands. Its capacity is the bound; a
	// nil channel refuses every warm-up.
	Warming chan struct{}
}

// Get bounds the call and still ends it when the client hangs up.
func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	v, err := h.Store.Load(ctx, r.PathValue("key"))
	if err != nil {
		fail(w, r, http.StatusBadGateway, "upstream", err)
		return
	}
	_, _ = w.Write(v)
}

// Preview passes its context down to the helper.
func (h *Handler) Preview(w http.ResponseWriter, r *http.Request) {
	v, err := h.preview(r.Context(), r.PathValue("key"))
	if err != nil {
		fail(w, r, http.StatusBadGateway, "upstream", err)
		return
	}
	_, _ = w.Write(v)
}

func (h *Handler) preview(ctx context.Context, key string) ([]byte, error) {
	v, err := h.Store.Load(ctx, key)
	if err != nil {
		return nil, err
	}
	return v[:min(len(v), 64)], nil
}

// Warm answers at once and fills the cache afterwards. The fill must not
// stop when this request ends, so it detaches from the request's
// cancellation on purpose (keeping its values, e.g. trace IDs) and gets a
// time bound of its own; Warming bounds how many run at once.
func (h *Handler) Warm(w http.ResponseWriter, r *http.Request) {
	select {
	case h.Warming <- struct{}{}:
	default:
		http.Error(w, "too many warm-ups in flight", http.StatusServiceUnavailable)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 30*time.Second)
	key := r.PathValue("key")
	go func() {
		defer func() { <-h.Warming }()
		defer cancel()
		if _, err := h.Store.Load(ctx, key); err != nil {
			h.Log.Warn("cache warm-up failed", "key", key, "err", err)
		}
	}()
	w.WriteHeader(http.StatusAccepted)
}

// fail logs err and answers with a generic JSON error: err may name a
// downstream's URL or a host, which the client must not see.
func fail(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	slog.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "code", code, "err", err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status), "code": code})
}
