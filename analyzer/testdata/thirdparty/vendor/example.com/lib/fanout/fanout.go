// Package fanout joins goroutines with errgroup and a WaitGroup: silent
// when they only compute (precision class 5 of issue 10), SIO005 when they
// do I/O.
package fanout

import (
	"context"
	"net/http"
	"sync"

	"golang.org/x/sync/errgroup"
)

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// Sums adds up each slice in its own goroutine.
func Sums(parts [][]int) []int {
	out := make([]int, len(parts))
	var g errgroup.Group
	for i, p := range parts {
		g.Go(func() error { out[i] = sum(p); return nil })
	}
	_ = g.Wait()
	return out
}

// GetAll fetches every request in its own goroutine and waits for all.
func GetAll(reqs []*http.Request) {
	var wg sync.WaitGroup
	for _, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp, err := http.DefaultClient.Do(r); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

// fetch does one request.
func fetch(r *http.Request) error {
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// FetchAll is GetAll with errgroup and a named function.
func FetchAll(reqs []*http.Request) error {
	var g errgroup.Group
	for _, r := range reqs {
		g.Go(func() error { return fetch(r) })
	}
	return g.Wait()
}

// Uploader starts uploads in one method and waits for them in another:
// Flush joins the goroutines Start adds to u.wg, which fetch, so it stays
// SIO005.
type Uploader struct{ wg sync.WaitGroup }

// Start uploads in the background.
func (u *Uploader) Start(r *http.Request) {
	u.wg.Add(1)
	go func() {
		defer u.wg.Done()
		_ = fetch(r)
	}()
}

// Flush waits for every upload.
func (u *Uploader) Flush() { u.wg.Wait() }

// Run runs tasks the caller gives: unknown work, so it stays SIO005.
func Run(tasks ...func()) {
	var wg sync.WaitGroup
	for _, t := range tasks {
		wg.Add(1)
		go t()
	}
	wg.Wait()
}

// Encoder starts its block workers in one method and waits for them in
// another (zstd's Encoder.Reset): the workers only compute, so Reset's
// wait is no SIO005.
type Encoder struct {
	wg  sync.WaitGroup
	out []int
}

func (e *Encoder) next(block []int) {
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		s := 0
		for _, v := range block {
			s += v
		}
		e.out = append(e.out, s)
	}()
}

func (e *Encoder) Reset() { e.wg.Wait() }

// Decoder restarts its stream worker with a detached context on Reset
// (zstd's Decoder.Reset): the worker only decodes, so the wait for the
// previous one is no SIO005.
type Decoder struct {
	wg     sync.WaitGroup
	cancel context.CancelFunc
	out    []byte
}

func (d *Decoder) Reset(in []byte) {
	d.wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	d.wg.Add(1)
	go d.decode(ctx, in)
}

func (d *Decoder) decode(ctx context.Context, in []byte) {
	defer d.wg.Done()
	for _, b := range in {
		if ctx.Err() != nil {
			return
		}
		d.out = append(d.out, b^0xff)
	}
}
