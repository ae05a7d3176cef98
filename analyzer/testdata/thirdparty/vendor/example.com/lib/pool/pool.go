// Package pool reduces redigo's Pool.lazyInit: a send into a buffer made
// just before with room for every value, under the pool's mutex.
package pool

import "sync"

// Pool limits active connections when Wait is set.
type Pool struct {
	mu        sync.Mutex
	ch        chan struct{}
	MaxActive int
	Wait      bool
}

func (p *Pool) lazyInit() {
	p.mu.Lock()
	if p.ch == nil {
		p.ch = make(chan struct{}, p.MaxActive)
		for i := 0; i < p.MaxActive; i++ {
			p.ch <- struct{}{}
		}
	}
	p.mu.Unlock()
}

// Get returns a connection handle.
func (p *Pool) Get() int {
	if p.Wait {
		p.lazyInit()
	}
	return 1
}
