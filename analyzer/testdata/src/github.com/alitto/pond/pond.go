// Package pond is a reduced github.com/alitto/pond (v1.9.2): each task
// runs in a goroutine of its own, where the real pool hands it to one of
// its workers.
package pond

import (
	"context"
	"sync"
	"time"
)

// WorkerPool runs the tasks submitted to it.
type WorkerPool struct {
	tasks sync.WaitGroup
}

// Option configures a WorkerPool.
type Option func(*WorkerPool)

// New returns a pool of up to maxWorkers workers and a queue of maxCapacity.
func New(maxWorkers, maxCapacity int, options ...Option) *WorkerPool {
	return &WorkerPool{}
}

// Submit runs task in a worker.
func (p *WorkerPool) Submit(task func()) {
	p.TrySubmit(task)
}

// TrySubmit runs task in a worker, if one is free.
func (p *WorkerPool) TrySubmit(task func()) bool {
	p.tasks.Add(1)
	go func() {
		defer p.tasks.Done()
		task()
	}()
	return true
}

// SubmitBefore runs task in a worker unless it has not started by deadline.
func (p *WorkerPool) SubmitBefore(task func(), deadline time.Duration) {
	p.Submit(task)
}

// SubmitAndWait runs task in a worker and waits for it.
func (p *WorkerPool) SubmitAndWait(task func()) {
	done := make(chan struct{})
	p.Submit(func() {
		defer close(done)
		task()
	})
	<-done
}

// Stop stops the pool; the context it returns is done once it has.
func (p *WorkerPool) Stop() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		p.tasks.Wait()
		cancel()
	}()
	return ctx
}

// StopAndWait stops the pool and waits for its tasks.
func (p *WorkerPool) StopAndWait() {
	p.tasks.Wait()
}

// StopAndWaitFor stops the pool and waits for its tasks, up to deadline.
func (p *WorkerPool) StopAndWaitFor(deadline time.Duration) {
	done := make(chan struct{})
	go func() {
		p.tasks.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(deadline):
	}
}

// Group returns a new group of tasks run by the pool.
func (p *WorkerPool) Group() *TaskGroup {
	return &TaskGroup{pool: p}
}

// TaskGroup is a group of tasks run by one pool.
type TaskGroup struct {
	pool      *WorkerPool
	waitGroup sync.WaitGroup
}

// Submit runs task in the group's pool.
func (g *TaskGroup) Submit(task func()) {
	g.waitGroup.Add(1)
	g.pool.Submit(func() {
		defer g.waitGroup.Done()
		task()
	})
}

// Wait waits for the group's tasks.
func (g *TaskGroup) Wait() {
	g.waitGroup.Wait()
}
