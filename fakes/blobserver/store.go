package blobserver

import (
	"crypto/md5"
	"fmt"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// blobProps are the HTTP properties stored with a blob and echoed on reads.
type blobProps struct {
	contentType        string
	contentEncoding    string
	contentLanguage    string
	contentDisposition string
	cacheControl       string
	contentMD5         []byte // nil when unknown (e.g. Put Block List without x-ms-blob-content-md5)
	metadata           map[string]string
}

type committedBlock struct {
	id      string
	off, sz int64
}

// blob is a committed block blob. data is never modified after commit, so readers may use
// it after releasing the store's lock; an overwrite swaps in a new blob.
type blob struct {
	data         []byte
	blocks       []committedBlock // empty for blobs written by Put Blob
	props        blobProps
	etag         string
	lastModified time.Time
	created      time.Time
	seq          uint64 // commit order, for eviction
}

type container struct {
	etag         string
	lastModified time.Time
	metadata     map[string]string
	blobs        map[string]*blob
	staged       map[string]map[string][]byte // blob name → block ID → uncommitted data
}

// store is the fake's memory. One mutex is enough: every operation is a map update or a
// copy of a request body already in memory, so the critical sections are short.
type store struct {
	mu         sync.Mutex
	containers map[string]*container
	used       int64 // committed + staged bytes
	capacity   int64 // 0 = unbounded
	etagSeq    atomic.Uint64

	// With evict set, a write that would exceed the cap first drops the oldest committed
	// blobs. order lists commits oldest first; entries whose blob was since replaced or
	// deleted are stale and skipped (their seq no longer matches).
	evict     bool
	order     []commitEntry
	orderHead int
	commitSeq uint64
	evicted   int64
}

type commitEntry struct {
	container, name string
	seq             uint64
}

func newStore(capacity int64) *store {
	return &store{containers: make(map[string]*container), capacity: capacity}
}

// newETag returns a fresh, quoted ETag in the service's "0x…" style. A counter makes two
// writes in the same nanosecond still differ.
func (s *store) newETag(now time.Time) string {
	return fmt.Sprintf("\"0x%X%04X\"", now.UnixNano(), s.etagSeq.Add(1)&0xFFFF)
}

// reserveLocked accounts for n new bytes for a write to cname/name, refusing when the cap
// would be exceeded, or evicting the oldest other blobs first when eviction is on.
func (s *store) reserveLocked(n int64, cname, name string) error {
	if s.capacity > 0 && s.used+n > s.capacity && s.evict {
		s.evictLocked(n, cname, name)
	}
	if s.capacity > 0 && s.used+n > s.capacity {
		return errorf(http.StatusInsufficientStorage, codeStorageFull,
			"the fake's memory cap of %d bytes is exhausted (%d used, %d more requested)", s.capacity, s.used, n)
	}
	s.used += n
	return nil
}

// evictLocked drops the oldest committed blobs until n more bytes fit or none are left.
// The blob being written is never evicted: its old size is already part of n.
func (s *store) evictLocked(n int64, cname, name string) {
	var self []commitEntry
	for s.used+n > s.capacity && s.orderHead < len(s.order) {
		e := s.order[s.orderHead]
		s.order[s.orderHead] = commitEntry{}
		s.orderHead++
		c := s.containers[e.container]
		if c == nil {
			continue
		}
		b := c.blobs[e.name]
		if b == nil || b.seq != e.seq {
			continue // stale entry
		}
		if e.container == cname && e.name == name {
			self = append(self, e)
			continue
		}
		s.used -= int64(len(b.data))
		delete(c.blobs, e.name)
		s.evicted++
	}
	s.order = append(s.order, self...)
	if s.orderHead > len(s.order)/2 { // compact so the queue does not grow without bound
		s.order = append(s.order[:0], s.order[s.orderHead:]...)
		s.orderHead = 0
	}
}

// commitLocked records b as the newest write of cname/name.
func (s *store) commitLocked(c *container, cname, name string, b *blob) {
	s.commitSeq++
	b.seq = s.commitSeq
	c.blobs[name] = b
	if s.evict {
		s.order = append(s.order, commitEntry{container: cname, name: name, seq: b.seq})
	}
}

func (s *store) containerLocked(name string) (*container, error) {
	c, ok := s.containers[name]
	if !ok {
		return nil, errorf(http.StatusNotFound, codeContainerNotFound, "the specified container %q does not exist", name)
	}
	return c, nil
}

func (s *store) createContainer(name string, metadata map[string]string, now time.Time) (*container, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.containers[name]; ok {
		return nil, errorf(http.StatusConflict, codeContainerAlreadyExists, "the specified container %q already exists", name)
	}
	c := &container{
		etag:         s.newETag(now),
		lastModified: now,
		metadata:     metadata,
		blobs:        make(map[string]*blob),
		staged:       make(map[string]map[string][]byte),
	}
	s.containers[name] = c
	return c, nil
}

// containerInfo returns a copy of what Get Container Properties reports.
func (s *store) containerInfo(name string) (container, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(name)
	if err != nil {
		return container{}, err
	}
	return container{etag: c.etag, lastModified: c.lastModified, metadata: maps.Clone(c.metadata)}, nil
}

func (s *store) deleteContainer(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(name)
	if err != nil {
		return err
	}
	for _, b := range c.blobs {
		s.used -= int64(len(b.data))
	}
	for _, blocks := range c.staged {
		for _, d := range blocks {
			s.used -= int64(len(d))
		}
	}
	delete(s.containers, name)
	return nil
}

// dropStagedLocked discards a blob's uncommitted blocks, as the service does on commit.
func (s *store) dropStagedLocked(c *container, name string) {
	for _, d := range c.staged[name] {
		s.used -= int64(len(d))
	}
	delete(c.staged, name)
}

// putBlob stores data (already owned by the store) as the whole blob.
func (s *store) putBlob(cname, name string, data []byte, props blobProps, now time.Time) (*blob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(cname)
	if err != nil {
		return nil, err
	}
	old := c.blobs[name]
	var oldSize int64
	if old != nil {
		oldSize = int64(len(old.data))
	}
	if err := s.reserveLocked(int64(len(data))-oldSize, cname, name); err != nil {
		return nil, err
	}
	if props.contentMD5 == nil {
		sum := md5.Sum(data)
		props.contentMD5 = sum[:]
	}
	b := &blob{data: data, props: props, etag: s.newETag(now), lastModified: now, created: now}
	if old != nil {
		b.created = old.created
	}
	s.commitLocked(c, cname, name, b)
	s.dropStagedLocked(c, name)
	return b, nil
}

func (s *store) putBlock(cname, name, id string, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(cname)
	if err != nil {
		return err
	}
	staged := c.staged[name]
	var oldSize int64
	if d, ok := staged[id]; ok {
		oldSize = int64(len(d))
	}
	if err := s.reserveLocked(int64(len(data))-oldSize, cname, name); err != nil {
		return err
	}
	if staged == nil {
		staged = make(map[string][]byte)
		c.staged[name] = staged
	}
	staged[id] = data
	return nil
}

// putBlockList commits refs as the blob's new content. Latest prefers the staged block, as
// the service does; a reference that resolves nowhere fails the whole commit.
func (s *store) putBlockList(cname, name string, refs []blockRef, props blobProps, now time.Time) (*blob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(cname)
	if err != nil {
		return nil, err
	}
	staged := c.staged[name]
	old := c.blobs[name]
	committed := make(map[string][]byte)
	if old != nil {
		for _, cb := range old.blocks {
			committed[cb.id] = old.data[cb.off : cb.off+cb.sz]
		}
	}
	parts := make([][]byte, len(refs))
	var total int64
	for i, ref := range refs {
		var (
			d  []byte
			ok bool
		)
		switch ref.source {
		case fromUncommitted:
			d, ok = staged[ref.id]
		case fromCommitted:
			d, ok = committed[ref.id]
		default:
			if d, ok = staged[ref.id]; !ok {
				d, ok = committed[ref.id]
			}
		}
		if !ok {
			return nil, errorf(http.StatusBadRequest, codeInvalidBlockList,
				"block %q (%s) is not in the blob's block lists", ref.id, ref.source)
		}
		parts[i] = d
		total += int64(len(d))
	}
	// The new blob is a fresh copy; staged and old data are released below, so the net
	// growth is the new size minus everything this blob held before.
	var held int64
	for _, d := range staged {
		held += int64(len(d))
	}
	if old != nil {
		held += int64(len(old.data))
	}
	if err := s.reserveLocked(total-held, cname, name); err != nil {
		return nil, err
	}
	data := make([]byte, 0, total)
	blocks := make([]committedBlock, len(refs))
	for i, d := range parts {
		blocks[i] = committedBlock{id: refs[i].id, off: int64(len(data)), sz: int64(len(d))}
		data = append(data, d...)
	}
	b := &blob{data: data, blocks: blocks, props: props, etag: s.newETag(now), lastModified: now, created: now}
	if old != nil {
		b.created = old.created
	}
	s.commitLocked(c, cname, name, b)
	delete(c.staged, name) // already subtracted as part of held
	return b, nil
}

func (s *store) getBlob(cname, name string) (*blob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(cname)
	if err != nil {
		return nil, err
	}
	b, ok := c.blobs[name]
	if !ok {
		return nil, errorf(http.StatusNotFound, codeBlobNotFound, "the specified blob %q does not exist", name)
	}
	return b, nil
}

func (s *store) deleteBlob(cname, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(cname)
	if err != nil {
		return err
	}
	b, ok := c.blobs[name]
	if !ok {
		return errorf(http.StatusNotFound, codeBlobNotFound, "the specified blob %q does not exist", name)
	}
	s.used -= int64(len(b.data))
	delete(c.blobs, name)
	s.dropStagedLocked(c, name)
	return nil
}

// usage reports the bytes held and the blobs evicted so far.
func (s *store) usage() (used, evicted int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used, s.evicted
}
