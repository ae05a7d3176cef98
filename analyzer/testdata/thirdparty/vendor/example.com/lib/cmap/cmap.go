// Package cmap reduces a concurrent map (xsync's MapOf) whose writers wait
// on a sync.Cond while another goroutine resizes the table: the library's
// own in-memory synchronisation, no SIO005 or SIO003 in a dependency.
package cmap

import "sync"

type Map struct {
	mu       sync.Mutex
	resizing bool
	cond     *sync.Cond
	m        map[string]string
}

func New() *Map {
	m := &Map{m: map[string]string{}}
	m.cond = sync.NewCond(&m.mu)
	return m
}

func (m *Map) Store(k, v string) {
	m.mu.Lock()
	for m.resizing {
		m.cond.Wait()
	}
	m.m[k] = v
	m.mu.Unlock()
}
