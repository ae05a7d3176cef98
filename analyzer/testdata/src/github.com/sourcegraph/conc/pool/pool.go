// Package pool is a reduced github.com/sourcegraph/conc/pool (v0.3.0):
// each task runs in a goroutine of its own, where the real pool hands it
// to one of its workers.
package pool

import (
	"context"
	"sync"

	"github.com/sourcegraph/conc"
)

// New returns a Pool with no limit.
func New() *Pool {
	return &Pool{}
}

// Pool runs tasks.
type Pool struct {
	handle conc.WaitGroup
}

// Go runs f in the pool.
func (p *Pool) Go(f func()) {
	p.handle.Go(f)
}

// Wait waits for the pool's tasks.
func (p *Pool) Wait() {
	p.handle.Wait()
}

// WithMaxGoroutines limits the pool to n goroutines.
func (p *Pool) WithMaxGoroutines(n int) *Pool {
	return p
}

// WithErrors turns the pool into an ErrorPool.
func (p *Pool) WithErrors() *ErrorPool {
	return &ErrorPool{}
}

// WithContext turns the pool into a ContextPool whose tasks get ctx.
func (p *Pool) WithContext(ctx context.Context) *ContextPool {
	ctx, cancel := context.WithCancel(ctx)
	return &ContextPool{ctx: ctx, cancel: cancel}
}

// ErrorPool runs tasks that may fail.
type ErrorPool struct {
	pool Pool
	mu   sync.Mutex
	errs error
}

// Go runs f in the pool.
func (p *ErrorPool) Go(f func() error) {
	p.pool.Go(func() {
		if err := f(); err != nil {
			p.mu.Lock()
			p.errs = err
			p.mu.Unlock()
		}
	})
}

// Wait waits for the pool's tasks and returns an error of theirs.
func (p *ErrorPool) Wait() error {
	p.pool.Wait()
	return p.errs
}

// ContextPool runs tasks given the pool's context.
type ContextPool struct {
	errorPool ErrorPool
	ctx       context.Context
	cancel    context.CancelFunc
}

// Go runs f in the pool with the pool's context.
func (p *ContextPool) Go(f func(ctx context.Context) error) {
	p.errorPool.Go(func() error {
		return f(p.ctx)
	})
}

// Wait waits for the pool's tasks, then cancels its context.
func (p *ContextPool) Wait() error {
	defer p.cancel()
	return p.errorPool.Wait()
}

// NewWithResults returns a pool of tasks that return a T.
func NewWithResults[T any]() *ResultPool[T] {
	return &ResultPool[T]{}
}

// ResultPool runs tasks that return a T.
type ResultPool[T any] struct {
	pool    Pool
	mu      sync.Mutex
	results []T
}

// Go runs f in the pool.
func (p *ResultPool[T]) Go(f func() T) {
	p.pool.Go(func() {
		r := f()
		p.mu.Lock()
		p.results = append(p.results, r)
		p.mu.Unlock()
	})
}

// Wait waits for the pool's tasks and returns their results.
func (p *ResultPool[T]) Wait() []T {
	p.pool.Wait()
	return p.results
}

// WithErrors turns the pool into a ResultErrorPool.
func (p *ResultPool[T]) WithErrors() *ResultErrorPool[T] {
	return &ResultErrorPool[T]{}
}

// WithContext turns the pool into a ResultContextPool whose tasks get ctx.
func (p *ResultPool[T]) WithContext(ctx context.Context) *ResultContextPool[T] {
	return &ResultContextPool[T]{contextPool: *p.pool.WithContext(ctx)}
}

// ResultErrorPool runs tasks that return a T or fail.
type ResultErrorPool[T any] struct {
	errorPool ErrorPool
	mu        sync.Mutex
	results   []T
}

// Go runs f in the pool.
func (p *ResultErrorPool[T]) Go(f func() (T, error)) {
	p.errorPool.Go(func() error {
		r, err := f()
		p.mu.Lock()
		p.results = append(p.results, r)
		p.mu.Unlock()
		return err
	})
}

// Wait waits for the pool's tasks and returns their results.
func (p *ResultErrorPool[T]) Wait() ([]T, error) {
	err := p.errorPool.Wait()
	return p.results, err
}

// ResultContextPool runs tasks given the pool's context that return a T
// or fail.
type ResultContextPool[T any] struct {
	contextPool ContextPool
	mu          sync.Mutex
	results     []T
}

// Go runs f in the pool with the pool's context.
func (p *ResultContextPool[T]) Go(f func(context.Context) (T, error)) {
	p.contextPool.Go(func(ctx context.Context) error {
		r, err := f(ctx)
		p.mu.Lock()
		p.results = append(p.results, r)
		p.mu.Unlock()
		return err
	})
}

// Wait waits for the pool's tasks and returns their results.
func (p *ResultContextPool[T]) Wait() ([]T, error) {
	err := p.contextPool.Wait()
	return p.results, err
}
