// Package workerpool is a reduced github.com/gammazero/workerpool
// (v1.3.0): each task runs in a goroutine of its own, where the real pool
// hands it to one of its workers.
package workerpool

import (
	"errors"
	"sync"
)

// ErrStopped is returned by Do and DoWait on a stopped pool.
var ErrStopped = errors.New("submitting work to stopped workerpool")

// WorkerPool runs the tasks given to it.
type WorkerPool struct {
	tasks sync.WaitGroup
}

// Option configures a WorkerPool.
type Option func(*WorkerPool)

// New returns a pool of up to maxWorkers workers.
func New(maxWorkers int, options ...Option) *WorkerPool {
	return &WorkerPool{}
}

// Do runs task in a worker.
func (p *WorkerPool) Do(task func()) error {
	p.tasks.Add(1)
	go func() {
		defer p.tasks.Done()
		task()
	}()
	return nil
}

// DoWait runs task in a worker and waits for it.
func (p *WorkerPool) DoWait(task func()) error {
	done := make(chan struct{})
	if err := p.Do(func() {
		task()
		close(done)
	}); err != nil {
		return err
	}
	<-done
	return nil
}

// Submit runs task in a worker.
func (p *WorkerPool) Submit(task func()) {
	if err := p.Do(task); err != nil {
		panic(err)
	}
}

// SubmitWait runs task in a worker and waits for it.
func (p *WorkerPool) SubmitWait(task func()) {
	if err := p.DoWait(task); err != nil {
		panic(err)
	}
}

// Stop stops the pool and waits for the tasks running.
func (p *WorkerPool) Stop() {
	p.tasks.Wait()
}

// StopWait stops the pool and waits for every task given to it.
func (p *WorkerPool) StopWait() {
	p.tasks.Wait()
}
