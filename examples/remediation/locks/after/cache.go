package after

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
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
	v, ok := c.lookup(key)
	if !ok {
		ch := c.loads.DoChan(key, func() (any, error) {
			// Shared by every request waiting for key: detach from this
			// request's cancellation and bound it on its own.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
			defer cancel()
			v, err := c.Store.Load(ctx, key)
			if err == nil {
				c.keep(key, v)
			}
			return v, err
		})
		select {
		case res := <-ch:
			if res.Err != nil {
				// The error names the downstream's URL: log it, and tell the
				// client only what failed.
				slog.ErrorContext(ctx, "cache load", "key", key, "err", res.Err)
				fail(w, http.StatusBadGateway, "value unavailable", "upstream")
				return
			}
			v = res.Val.([]byte)
		case <-ctx.Done():
			return // the client left; the shared load goes on and is kept
		}
	}
	_, _ = w.Write(v)
}

// lookup and keep are the whole critical section, each a function of its
// own with a deferred Unlock: a panic under the lock (a nil map written,
// an index out of range) cannot leave mu held, which net/http, recovering
// the handler's panic and serving on, would turn into every later request
// hanging on Lock.
func (c *Cache) lookup(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[key]
	return v, ok
}

func (c *Cache) keep(key string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string][]byte{}
	}
	c.items[key] = v
}

// fail answers with a JSON error that says what failed and nothing more.
func fail(w http.ResponseWriter, status int, msg, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg, "code": code})
}
