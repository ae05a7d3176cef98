// Package conc is a reduced github.com/sourcegraph/conc (v0.3.0).
package conc

import "sync"

// NewWaitGroup returns a new WaitGroup.
func NewWaitGroup() *WaitGroup {
	return &WaitGroup{}
}

// WaitGroup runs goroutines and waits for them.
type WaitGroup struct {
	wg sync.WaitGroup
}

// Go runs f in a new goroutine.
func (h *WaitGroup) Go(f func()) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		f()
	}()
}

// Wait waits for the goroutines Go started.
func (h *WaitGroup) Wait() {
	h.wg.Wait()
}

// WaitAndRecover waits for the goroutines Go started and returns a
// panic one of them raised (always nil here).
func (h *WaitGroup) WaitAndRecover() *Recovered {
	h.wg.Wait()
	return nil
}

// Recovered is a panic recovered in a goroutine (conc/panics' type).
type Recovered struct {
	Value any
}
