package after

import (
	"container/list"
	"context"
	"log/slog"
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
//
// It holds at most a bound of keys (MaxKeys), evicting the least recently
// used: the keys come from requests, so an unbounded cache is memory that
// the clients decide.
type TTLCache struct {
	load       func(ctx context.Context, key string) ([]byte, error)
	ttl, stale time.Duration
	maxKeys    int
	now        func() time.Time // time.Now; tests replace it

	mu    sync.Mutex
	items map[string]*list.Element // of *cached, in lru
	lru   list.List                // most recently used first
	loads singleflight.Group
}

type cached struct {
	key string
	val []byte
	at  time.Time
}

// DefaultMaxKeys bounds a TTLCache built without MaxKeys.
const DefaultMaxKeys = 10_000

// Option configures a TTLCache.
type Option func(*TTLCache)

// MaxKeys bounds the cache to n keys (n > 0): storing one more evicts the
// least recently used. Without a bound, a client that asks for ever new
// keys grows the cache until the process runs out of memory.
func MaxKeys(n int) Option { return func(c *TTLCache) { c.maxKeys = n } }

// NewTTLCache returns a cache that loads with load, keeps values for ttl
// and serves them stale for up to stale more while they are refreshed. It
// holds at most DefaultMaxKeys keys unless MaxKeys says otherwise.
func NewTTLCache(load func(ctx context.Context, key string) ([]byte, error), ttl, stale time.Duration, opts ...Option) *TTLCache {
	c := &TTLCache{load: load, ttl: ttl, stale: stale, maxKeys: DefaultMaxKeys, now: time.Now, items: map[string]*list.Element{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Len is the number of keys held.
func (c *TTLCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Get returns key's value: at once if it is fresh or stale (starting a
// refresh for a stale one, unless one runs), else after the shared load.
func (c *TTLCache) Get(ctx context.Context, key string) ([]byte, error) {
	e, ok := c.lookup(key)
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
	c.store(key, v)
	return v, nil
}

// lookup returns key's entry and marks it recently used.
func (c *TTLCache) lookup(key string) (cached, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return cached{}, false
	}
	c.lru.MoveToFront(el)
	return *el.Value.(*cached), true
}

// store keeps v for key and evicts the least recently used keys past the
// bound.
func (c *TTLCache) store(key string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		*el.Value.(*cached) = cached{key: key, val: v, at: c.now()}
		c.lru.MoveToFront(el)
		return
	}
	c.items[key] = c.lru.PushFront(&cached{key: key, val: v, at: c.now()})
	for len(c.items) > c.maxKeys {
		oldest := c.lru.Back()
		c.lru.Remove(oldest)
		delete(c.items, oldest.Value.(*cached).key)
	}
}

// Serve answers GET /{key} from the cache.
func (c *TTLCache) Serve(w http.ResponseWriter, r *http.Request) {
	v, err := c.Get(r.Context(), r.PathValue("key"))
	if err != nil {
		if r.Context().Err() == nil {
			slog.ErrorContext(r.Context(), "cache load", "key", r.PathValue("key"), "err", err)
			fail(w, http.StatusBadGateway, "value unavailable", "upstream")
		}
		return
	}
	_, _ = w.Write(v)
}
