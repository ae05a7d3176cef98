// Package ants is a reduced github.com/panjf2000/ants/v2 (v2.12.1): each
// task runs in a goroutine of its own, where the real pool hands it to
// one of its workers. Pool's methods other than Submit are poolCommon's,
// promoted, as in the real package since v2.11.
package ants

import (
	"sync"
	"time"
)

// Option configures a pool.
type Option func(*poolCommon)

type poolCommon struct {
	running sync.WaitGroup
}

// Pool runs the tasks submitted to it.
type Pool struct {
	*poolCommon
}

// NewPool returns a pool of up to size workers.
func NewPool(size int, options ...Option) (*Pool, error) {
	return &Pool{poolCommon: &poolCommon{}}, nil
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
func (p *poolCommon) ReleaseTimeout(timeout time.Duration) error {
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

// Release closes the pool without waiting.
func (p *poolCommon) Release() {}

var defaultAntsPool, _ = NewPool(100)

// Submit runs task in the default pool.
func Submit(task func()) error {
	return defaultAntsPool.Submit(task)
}

// MultiPool spreads tasks over pools.
type MultiPool struct {
	pools []*Pool
}

// LoadBalancingStrategy picks the pool of a task.
type LoadBalancingStrategy int

// RoundRobin picks the pools in turn.
const RoundRobin LoadBalancingStrategy = 1

// NewMultiPool returns size pools of sizePerPool workers.
func NewMultiPool(size, sizePerPool int, lbs LoadBalancingStrategy, options ...Option) (*MultiPool, error) {
	p, _ := NewPool(sizePerPool)
	return &MultiPool{pools: []*Pool{p}}, nil
}

// Submit runs task in one of the pools.
func (mp *MultiPool) Submit(task func()) error {
	return mp.pools[0].Submit(task)
}

// ReleaseTimeout closes every pool and waits for their workers, up to
// timeout.
func (mp *MultiPool) ReleaseTimeout(timeout time.Duration) error {
	return mp.pools[0].ReleaseTimeout(timeout)
}

// ErrTimeout is returned by ReleaseTimeout when the workers outlast it.
var ErrTimeout = errTimeout{}

type errTimeout struct{}

func (errTimeout) Error() string { return "operation timed out" }
