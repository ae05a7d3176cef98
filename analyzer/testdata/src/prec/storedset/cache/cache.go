// Package cache is a key-value store with two implementations, as
// Cloudreve's pkg/cache: one over Redis (redigo), one in memory.
package cache

import (
	"sync"

	"github.com/gomodule/redigo/redis"
)

// Driver is the store's interface.
type Driver interface {
	Get(key string) (any, bool)
}

// RedisStore takes a connection from its pool on every call.
type RedisStore struct{ pool *redis.Pool }

func NewRedisStore() *RedisStore { return &RedisStore{pool: &redis.Pool{}} }

func (s *RedisStore) Get(key string) (any, bool) { // want Get:`^blocks\(SIO001: github.com/gomodule/redigo/redis.\(\*Pool\).Get\) \+ blocks\(SIO001: github.com/gomodule/redigo/redis.Conn.Do\)$`
	conn := s.pool.Get()
	v, err := conn.Do("GET", key)
	return v, err == nil
}

// MemoStore is a map under a mutex: no I/O.
type MemoStore struct {
	mu sync.Mutex
	m  map[string]any
}

func NewMemoStore() *MemoStore { return &MemoStore{m: map[string]any{}} }

// OpenMemo returns the in-memory store and an error, as a constructor
// that may fail does.
func OpenMemo() (*MemoStore, error) { return NewMemoStore(), nil }

func (s *MemoStore) Get(key string) (any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok
}
