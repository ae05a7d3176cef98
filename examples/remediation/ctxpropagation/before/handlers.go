package before

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Store is a client of a downstream key-value service. Its methods take a
// context, as they should.
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
}

// Get looks context-aware in review, but its timeout starts from
// Background: a client that hangs up does not stop the call.
func (h *Handler) Get(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	v, err := h.Store.Load(ctx, r.PathValue("key")) // syncio: SIO002
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write(v)
}

// Preview calls a helper that has no context parameter, so the helper
// makes one up.
func (h *Handler) Preview(w http.ResponseWriter, r *http.Request) {
	v, err := h.preview(r.PathValue("key")) // syncio: SIO002
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write(v)
}

func (h *Handler) preview(key string) ([]byte, error) {
	v, err := h.Store.Load(context.TODO(), key)
	if err != nil {
		return nil, err
	}
	return v[:min(len(v), 64)], nil
}
