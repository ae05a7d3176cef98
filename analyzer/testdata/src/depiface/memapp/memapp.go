// Package memapp binds the session library's Store to its own in-memory
// store, which does no I/O: silent.
package memapp

import (
	"net/http"
	"sync"

	"example.com/sessions"
)

type memStore struct {
	mu sync.RWMutex
	m  map[string]string
}

func (s *memStore) Get(r *http.Request, name string) (string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.m[name], nil
}

var manager = sessions.NewManager(&memStore{m: map[string]string{}})

func Profile(w http.ResponseWriter, r *http.Request) {
	_, _ = manager.Get(r, "sid")
}
