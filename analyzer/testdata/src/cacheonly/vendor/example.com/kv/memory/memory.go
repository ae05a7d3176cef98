// Package memory is the library's in-memory Cache: no I/O.
package memory

import (
	"context"
	"sync"
)

type Cache struct {
	mu sync.Mutex
	m  map[string]string
}

func NewCache() *Cache { return &Cache{m: map[string]string{}} }

func (c *Cache) GetString(_ context.Context, key string) (string, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok, nil
}
