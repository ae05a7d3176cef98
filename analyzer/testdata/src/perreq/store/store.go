// Package store is a gocloud-style blob bucket whose methods read-lock the
// bucket's own mutex around a remote call, and a filesystem over it that
// a handler may open per request or keep for good.
package store

import (
	"context"
	"net/http"
	"sync"
)

type Bucket struct {
	mu     sync.RWMutex
	closed bool
	url    string
}

// Open makes a bucket; NewFS calls it, so the bucket is the filesystem's own.
func Open(url string) *Bucket { return &Bucket{url: url} }

func (b *Bucket) Attributes(ctx context.Context, key string) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, b.url+key, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (b *Bucket) List() *Iterator { return &Iterator{b: b} }

type Iterator struct{ b *Bucket }

// NewIterator lists a bucket it is given: the bucket may be anyone's.
func NewIterator(b *Bucket) *Iterator { return &Iterator{b: b} }

func (i *Iterator) Next(ctx context.Context) error {
	i.b.mu.RLock()
	defer i.b.mu.RUnlock()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, i.b.url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (b *Bucket) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

type FS struct{ bucket *Bucket }

// NewFS opens a filesystem of its own over a new bucket.
func NewFS(url string) (*FS, error) { return &FS{bucket: Open(url)}, nil }

func (s *FS) Exists(ctx context.Context, key string) bool {
	return s.bucket.Attributes(ctx, key) == nil
}

func (s *FS) List(ctx context.Context) error {
	iter := s.bucket.List()
	return iter.Next(ctx)
}

func (s *FS) Close() error { return s.bucket.Close() }
