// Package store takes its own lock around I/O: callers in other packages
// learn it through the fact.
package store

import (
	"context"
	"net/http"
	"sync"
)

type Cache struct {
	mu sync.Mutex
	c  *http.Client
}

// Refresh holds c.mu across a request that honours ctx: fine alone, SIO003
// for every caller.
func (c *Cache) Refresh(ctx context.Context, u string) error { // want Refresh:`^blocks\(\+SIO003: net/http.\(\*Client\).Do\)$`
	c.mu.Lock()
	defer c.mu.Unlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	_, err = c.c.Do(req)
	return err
}

// Size only reads memory under the lock.
func (c *Cache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return 1
}
