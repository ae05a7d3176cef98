package after

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
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

// loadTimeout bounds a shared load, which no single request may cancel.
const loadTimeout = 5 * time.Second

// Cache serves values, loading missing ones from Store.
type Cache struct {
	Store *Store

	mu    sync.Mutex
	items map[string][]byte
	loads singleflight.Group
}

// Get holds mu only to read and to publish; concurrent misses for one key
// share a single load, which publishes its own result: it is kept even
// when every request that waited for it has gone.
func (c *Cache) Get(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	key := r.PathValue("key")
	c.mu.Lock()
	v, ok := c.items[key]
	c.mu.Unlock()
	if !ok {
		ch := c.loads.DoChan(key, func() (any, error) {
			// Shared by every request waiting for key: detach from this
			// request's cancellation and bound it on its own.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
			defer cancel()
			v, err := c.Store.Load(ctx, key)
			if err == nil {
				c.mu.Lock()
				if c.items == nil {
					c.items = map[string][]byte{}
				}
				c.items[key] = v
				c.mu.Unlock()
			}
			return v, err
		})
		select {
		case res := <-ch:
			if res.Err != nil {
				http.Error(w, res.Err.Error(), http.StatusBadGateway)
				return
			}
			v = res.Val.([]byte)
		case <-ctx.Done():
			return // the client left; the shared load goes on and is kept
		}
	}
	_, _ = w.Write(v)
}
