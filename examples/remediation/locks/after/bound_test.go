package after

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestTTLCacheBounded: with MaxKeys(3), a fourth key evicts the least
// recently used one (k2: k1 was read again since), the cache never holds
// more than 3 keys however many distinct keys clients ask for, and an
// evicted key is loaded again while a kept one is not.
func TestTTLCacheBounded(t *testing.T) {
	loads := map[string]int{}
	load := func(_ context.Context, key string) ([]byte, error) {
		loads[key]++ // Get waits for each miss's load, so loads run one at a time
		return []byte(key), nil
	}
	c := NewTTLCache(load, time.Hour, 0, MaxKeys(3))
	get := func(key string) {
		t.Helper()
		if v, err := c.Get(context.Background(), key); err != nil || string(v) != key {
			t.Fatalf("Get(%s) = %q, %v", key, v, err)
		}
	}
	for _, k := range []string{"k1", "k2", "k3", "k1", "k4"} {
		get(k)
	}
	if n := c.Len(); n != 3 {
		t.Fatalf("Len = %d after 4 keys with MaxKeys(3)", n)
	}
	get("k1")
	get("k2")
	if loads["k1"] != 1 || loads["k2"] != 2 {
		t.Errorf("loads k1=%d k2=%d; want 1 (kept, recently used) and 2 (evicted, loaded again)", loads["k1"], loads["k2"])
	}
	for i := range 1000 {
		get(fmt.Sprint("scan", i))
		if n := c.Len(); n > 3 {
			t.Fatalf("Len = %d after %d distinct keys: the bound does not hold", n, i+5)
		}
	}
}

// TestTTLCacheDefaultBound: a cache built without MaxKeys is bounded too.
func TestTTLCacheDefaultBound(t *testing.T) {
	c := NewTTLCache(func(context.Context, string) ([]byte, error) { return nil, nil }, time.Hour, 0)
	if c.maxKeys != DefaultMaxKeys || DefaultMaxKeys <= 0 {
		t.Errorf("maxKeys = %d, want DefaultMaxKeys (%d > 0)", c.maxKeys, DefaultMaxKeys)
	}
}
