package before

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Store loads values from a downstream service.
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

// Cache serves values, loading missing ones from Store.
type Cache struct {
	Store *Store

	mu    sync.Mutex
	items map[string][]byte
}

// Get holds mu across the load, so the cache serves one request per
// downstream round trip.
func (c *Cache) Get(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("key")
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[key]
	if !ok {
		var err error
		v, err = c.Store.Load(r.Context(), key) // syncio: SIO003
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		if c.items == nil {
			c.items = map[string][]byte{}
		}
		c.items[key] = v
	}
	_, _ = w.Write(v)
}
