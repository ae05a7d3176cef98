// Package ants is a reduced github.com/panjf2000/ants/v2 as of v2.10.0,
// before v2.11 moved Pool's methods to the poolCommon it embeds: here
// ReleaseTimeout is Pool's own. Each task runs in a goroutine of its own.
package ants

import (
	"sync"
	"time"
)

// Option configures a Pool.
type Option func(*Pool)

// Pool runs the tasks submitted to it.
type Pool struct {
	running sync.WaitGroup
}

// NewPool returns a pool of up to size workers.
func NewPool(size int, options ...Option) (*Pool, error) {
	return &Pool{}, nil
}

// Submit runs task in a worker.
func (p *Pool) Submit(task func()) error {
	p.running.Add(1)
	go func() {
		defer p.running.Done()
		task()
	}()
	return nil
}

// ReleaseTimeout closes the pool and waits for its workers to exit, up to
// timeout.
func (p *Pool) ReleaseTimeout(timeout time.Duration) error {
	done := make(chan struct{})
	go func() {
		p.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-time.After(timeout):
		return ErrTimeout
	}
}

// ErrTimeout is returned by ReleaseTimeout when the workers outlast it.
var ErrTimeout = errTimeout{}

type errTimeout struct{}

func (errTimeout) Error() string { return "operation timed out" }
