package after

import (
	"context"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// TTLCache keeps each value for ttl, then serves it for up to stale more
// while one background refresh per key replaces it: the requests for a hot
// key never wait for its refresh (stale-while-revalidate). Only a miss, or
// a value older than ttl+stale, waits, for one load shared by every
// request for the key.
//
// With singleflight alone and a TTL, every expiry of a hot key makes all
// of its requests wait for the reload: sharing the load spares the
// downstream, not the requests.
type TTLCache struct {
	load       func(ctx context.Context, key string) ([]byte, error)
	ttl, stale time.Duration
	now        func() time.Time // time.Now; tests replace it

	mu    sync.Mutex
	items map[string]cached
	loads singleflight.Group
}

type cached struct {
	val []byte
	at  time.Time
}

// NewTTLCache returns a cache that loads with load, keeps values for ttl
// and serves them stale for up to stale more while they are refreshed.
func NewTTLCache(load func(ctx context.Context, key string) ([]byte, error), ttl, stale time.Duration) *TTLCache {
	return &TTLCache{load: load, ttl: ttl, stale: stale, now: time.Now, items: map[string]cached{}}
}

// Get returns key's value: at once if it is fresh or stale (starting a
// refresh for a stale one, unless one runs), else after the shared load.
func (c *TTLCache) Get(ctx context.Context, key string) ([]byte, error) {
	c.mu.Lock()
	e, ok := c.items[key]
	c.mu.Unlock()
	age := c.now().Sub(e.at)
	if ok && age < c.ttl {
		return e.val, nil
	}
	ch := c.loads.DoChan(key, func() (any, error) { return c.fill(ctx, key) })
	if ok && age < c.ttl+c.stale {
		return e.val, nil // the refresh runs on; its result lands in items
	}
	select {
	case res := <-ch:
		if res.Err != nil {
			return nil, res.Err
		}
		return res.Val.([]byte), nil
	case <-ctx.Done():
		return nil, ctx.Err() // the shared load goes on and is kept
	}
}

// fill loads key and publishes it. It is shared by every request for key
// and outlives the one that started it, so it detaches from that
// request's cancellation and gets a bound of its own.
func (c *TTLCache) fill(ctx context.Context, key string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), loadTimeout)
	defer cancel()
	v, err := c.load(ctx, key)
	if err != nil {
		return nil, err // a failed refresh keeps the stale value until it is too old
	}
	c.mu.Lock()
	c.items[key] = cached{val: v, at: c.now()}
	c.mu.Unlock()
	return v, nil
}

// Serve answers GET /{key} from the cache.
func (c *TTLCache) Serve(w http.ResponseWriter, r *http.Request) {
	v, err := c.Get(r.Context(), r.PathValue("key"))
	if err != nil {
		if r.Context().Err() == nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
		return
	}
	_, _ = w.Write(v)
}
