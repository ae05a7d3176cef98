// Package fieldwait: a goroutine that waits on a WaitGroup field, started
// by the function that adds to it (hashicorp/go-plugin v1.8.0's
// Client.Start, client.go:756-800; cloud.google.com/go/storage's
// multi-range reader). Judging the Wait by the work of the functions that
// Add to the field led back into the same function, without end: the
// analyzer overflowed its stack and reported nothing for the program.
package fieldwait

import (
	"context"
	"net/http"
	"sync"
)

type runner interface {
	Wait(ctx context.Context) error
}

type Client struct {
	clientWG, pipesWG sync.WaitGroup
	runner            runner
	cancel            context.CancelFunc
	l                 sync.Mutex
	exited            bool
}

func (c *Client) logStderr() {
	defer c.clientWG.Done()
	defer c.pipesWG.Done()
}

func (c *Client) Start() {
	c.pipesWG.Add(2)
	c.clientWG.Add(1)
	go c.logStderr()
	c.clientWG.Add(1)
	go func() {
		defer c.cancel()
		defer c.clientWG.Done()
		c.pipesWG.Wait()
		_ = c.runner.Wait(context.Background())
		c.l.Lock()
		defer c.l.Unlock()
		c.exited = true
	}()
	c.clientWG.Add(1)
	go func() {
		defer c.clientWG.Done()
		defer c.pipesWG.Done()
	}()
}

// Kill waits for the client's goroutines.
func (c *Client) Kill() { // want Kill:`blocks\(SIO005: sync.\(\*WaitGroup\).Wait\)`
	c.clientWG.Wait()
}

var shared = &Client{}

// Start starts the client on a request: its goroutines run on their own.
func Start(w http.ResponseWriter, r *http.Request) {
	shared.Start()
}

// Kill waits for them.
func Kill(w http.ResponseWriter, r *http.Request) {
	shared.Kill() // want `^Kill calls fieldwait.\(\*Client\).Kill → sync.\(\*WaitGroup\).Wait, which waits for goroutines that do not stop with the request's context`
}
