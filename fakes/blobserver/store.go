package blobserver

import (
	"container/list"
	"fmt"
	"log/slog"
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
	id string
	c  content
}

// blob is a committed block blob. Its content is never modified after commit, so readers
// may use it after releasing the store's lock (holding its segments: see getBlob); an
// overwrite swaps in a new blob.
type blob struct {
	c            content
	size         int64
	blocks       []committedBlock // empty for blobs written by Put Blob
	props        blobProps
	etag         string
	lastModified time.Time
	created      time.Time
}

type container struct {
	etag         string
	lastModified time.Time
	metadata     map[string]string
	blobs        map[string]*blob
	staged       map[string]*stagedBlob // by blob name
}

// stagedBlob is a blob's uncommitted blocks: Put Block calls not yet followed by the Put
// Block List that commits them.
type stagedBlob struct {
	c       *container
	name    string
	blocks  map[string]content // by block ID
	touched time.Time          // the blob's last Put Block, from which its expiry counts
	elem    *list.Element      // in store.byAge
}

// Staged blocks are bounded apart from committed blobs. The cap counts committed bytes
// alone, so uploads that staged blocks and never committed them (a client that gave up, an
// API that failed) cannot take the room of blobs clients were told about: four aborted
// uploads once filled a 100 MiB store and every later upload got 507. Staged bytes have
// an allowance of their own, as large as the cap, so any upload the cap could hold can be
// staged, while what aborted uploads hold stays bounded. The allowance empties by itself: a
// blob's staged blocks are discarded once it has seen no Put Block for the expiry, as the
// service does after a week; and at once by a Put Blob, Put Block List or Delete Blob on
// the blob, as in the service.

// store is the fake's index, in memory, over blob bytes on disk (see disk). One mutex is
// enough: every operation under it is a map update or extent bookkeeping; the bytes are
// copied to and from disk outside it.
type store struct {
	mu            sync.Mutex
	containers    map[string]*container
	disk          disk
	used          int64 // committed bytes, bounded by capacity
	pending       int64 // Put Blob bytes being written, counted against capacity
	staged        int64 // uncommitted block bytes, bounded by stagedCapacity
	pendingStaged int64 // Put Block bytes being written, counted against stagedCapacity
	capacity      int64 // 0 = unbounded
	blobs         int   // committed blobs, bounded by maxBlobs
	maxBlobs      int   // 0 = unbounded
	// expiry is how long a blob's staged blocks outlive its last Put Block (0 = for ever).
	expiry  time.Duration
	byAge   list.List        // *stagedBlob, least recently staged first
	now     func() time.Time // the clock expiry reads; tests move it by hand
	etagSeq atomic.Uint64
}

func newStore(capacity int64, log *slog.Logger) *store {
	return &store{
		containers: make(map[string]*container),
		capacity:   capacity,
		maxBlobs:   DefaultMaxBlobs,
		expiry:     DefaultStagedBlockExpiry,
		now:        time.Now,
		disk:       disk{log: log},
	}
}

// stagedCapacity bounds the staged bytes: as much as the cap (see above), 0 = unbounded.
func (s *store) stagedCapacity() int64 { return s.capacity }

// newETag returns a fresh, quoted ETag in the service's "0x…" style. A counter makes two
// writes in the same nanosecond still differ.
func (s *store) newETag(now time.Time) string {
	return fmt.Sprintf("\"0x%X%04X\"", now.UnixNano(), s.etagSeq.Add(1)&0xFFFF)
}

func errFull(format string, args ...any) *storageError {
	return errorf(http.StatusInsufficientStorage, codeStorageFull, format, args...)
}

// committedRoomLocked refuses a write that would grow the committed bytes by n past the cap.
func (s *store) committedRoomLocked(n int64) error {
	if s.capacity > 0 && s.used+s.pending+n > s.capacity {
		return errFull("the fake's storage cap of %d bytes is exhausted (%d used, %d more requested)", s.capacity, s.used+s.pending, n)
	}
	return nil
}

// stagedRoomLocked refuses a Put Block that would grow the staged bytes by n past their
// allowance, saying how the room comes back.
func (s *store) stagedRoomLocked(n int64) error {
	limit := s.stagedCapacity()
	if limit <= 0 || s.staged+s.pendingStaged+n <= limit {
		return nil
	}
	when := "are never discarded by age (no expiry is set)"
	if s.expiry > 0 {
		when = fmt.Sprintf("are discarded %v after the blob's last Put Block", s.expiry)
	}
	return errFull("uncommitted blocks fill the fake's allowance of %d bytes for them (%d staged, %d more requested); "+
		"a blob's uncommitted blocks %s, or at once by a Put Blob, Put Block List or Delete Blob on it",
		limit, s.staged+s.pendingStaged, n, when)
}

// removeBlobLocked forgets b, which is c.blobs[name], and releases its bytes.
func (s *store) removeBlobLocked(c *container, name string, b *blob) {
	s.used -= b.size
	s.disk.dropLive(b.c)
	delete(c.blobs, name)
	s.blobs--
}

// commitLocked records b as the newest write of cname/name, releasing the blob it replaces.
// b's bytes are counted live before the old blob's are dropped, so a segment they share
// is never removed in between.
func (s *store) commitLocked(c *container, name string, b *blob) {
	s.disk.addLive(b.c)
	if old := c.blobs[name]; old != nil {
		s.disk.dropLive(old.c)
	} else {
		s.blobs++
	}
	c.blobs[name] = b
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
		staged:       make(map[string]*stagedBlob),
	}
	if err := s.journalLocked(record{Op: opContainer, Container: name, ETag: c.etag, Modified: now, Metadata: metadata}); err != nil {
		return nil, err
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
	if err := s.journalLocked(record{Op: opDropContainer, Container: name}); err != nil {
		return err
	}
	for bname, b := range c.blobs {
		s.removeBlobLocked(c, bname, b)
	}
	for bname := range c.staged {
		s.dropStagedLocked(c, bname)
	}
	delete(s.containers, name)
	return nil
}

// dropStagedLocked discards a blob's uncommitted blocks, as the service does on commit.
func (s *store) dropStagedLocked(c *container, name string) {
	sb := c.staged[name]
	if sb == nil {
		return
	}
	for _, d := range sb.blocks {
		s.staged -= d.size()
		s.disk.dropLive(d)
	}
	s.byAge.Remove(sb.elem)
	delete(c.staged, name)
}

// expireLocked discards the staged blocks of every blob whose last Put Block is at least the
// expiry before now. byAge is in the order of the blobs' last Put Block, so it stops at the
// first blob still within its expiry: a call costs what it discards.
func (s *store) expireLocked(now time.Time) {
	if s.expiry <= 0 {
		return
	}
	for e := s.byAge.Front(); e != nil; e = s.byAge.Front() {
		sb := e.Value.(*stagedBlob)
		idle := now.Sub(sb.touched)
		if idle < s.expiry {
			return
		}
		var n int64
		for _, d := range sb.blocks {
			n += d.size()
		}
		s.disk.log.Info("blobserver: discarded expired uncommitted blocks", "blob", sb.name,
			"blocks", len(sb.blocks), "bytes", n, "idle", idle)
		s.dropStagedLocked(sb.c, sb.name)
	}
}

// expire discards the staged blocks that expired with no request to notice them.
func (s *store) expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expireLocked(s.now())
}

// beginWrite reserves room on disk for an n-byte Put Blob (blockID "") or Put Block to
// cname/name, after checking the container exists and the caps: the cap for a Put Blob,
// the staged allowance for a Put Block. The caller writes the bytes into the returned
// extent, then calls commitBlob or commitBlock, or abortWrite.
// The check credits the bytes the write will replace; two concurrent overwrites of one
// blob or block may both take that credit, overshooting by at most one until commit.
func (s *store) beginWrite(cname, name, blockID string, n int64) (extent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expireLocked(s.now())
	c, err := s.containerLocked(cname)
	if err != nil {
		return extent{}, err
	}
	if blockID == "" {
		var credit int64
		if old := c.blobs[name]; old != nil {
			credit = old.size
		} else if s.maxBlobs > 0 && s.blobs >= s.maxBlobs {
			return extent{}, errFull("the fake holds its maximum of %d blobs", s.maxBlobs)
		}
		if err := s.committedRoomLocked(n - credit); err != nil {
			return extent{}, err
		}
	} else {
		var credit int64
		if sb := c.staged[name]; sb != nil {
			credit = sb.blocks[blockID].size()
		}
		if err := s.stagedRoomLocked(n - credit); err != nil {
			return extent{}, err
		}
	}
	// The directory also holds the not yet reclaimed space of overwritten and deleted
	// blobs and discarded blocks (see disk: held by reads, or where holes cannot be
	// punched); twice what may be live (the cap, and as much staged) bounds it whatever
	// the pattern.
	if live := s.capacity + s.stagedCapacity(); s.capacity > 0 && s.disk.bytes+n > 2*live {
		return extent{}, errFull("the fake's directory holds %d bytes, at its limit of twice the %d bytes committed and staged blocks may hold", s.disk.bytes, live)
	}
	e, err := s.disk.reserve(n)
	if err != nil {
		return extent{}, err
	}
	if blockID == "" {
		s.pending += n
	} else {
		s.pendingStaged += n
	}
	return e, nil
}

// abortWrite gives back the reservation of a Put Blob, or of a Put Block when block is
// set; its bytes on disk become garbage, given back by a hole (see disk).
func (s *store) abortWrite(e extent, block bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if block {
		s.pendingStaged -= e.n
	} else {
		s.pending -= e.n
	}
	s.disk.discard(e)
	s.disk.unref(content{e})
}

// releaseWrite ends a commit's hold on its written extent e; if the commit failed (*err
// set), the extent never became live and is garbage.
func (s *store) releaseWrite(e extent, err *error) {
	if *err != nil {
		s.disk.discard(e)
	}
	s.disk.unref(content{e})
}

// commitBlob makes the written extent e the whole blob. The reservation is released
// whatever the outcome.
func (s *store) commitBlob(cname, name string, e extent, props blobProps, now time.Time) (_ *blob, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.releaseWrite(e, &err) // after commitLocked has counted the bytes live
	s.pending -= e.n
	c, err := s.containerLocked(cname)
	if err != nil { // deleted while the body was arriving
		return nil, err
	}
	old := c.blobs[name]
	b := &blob{c: content{e}, size: e.n, props: props, etag: s.newETag(now), lastModified: now, created: now}
	if old != nil {
		b.created = old.created
	}
	if err := s.journalLocked(blobRecord(cname, name, b)); err != nil {
		return nil, err
	}
	s.used += e.n
	if old != nil {
		s.used -= old.size
	}
	s.commitLocked(c, name, b)
	s.dropStagedLocked(c, name) // Put Blob discards the blob's uncommitted blocks
	return b, nil
}

// commitBlock stages the written extent e as block id of cname/name, which restarts the
// blob's expiry. The reservation is released whatever the outcome.
func (s *store) commitBlock(cname, name, id string, e extent) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.releaseWrite(e, &err)
	s.pendingStaged -= e.n
	// Expire first: blocks whose blob went quiet for the expiry while this one arrived are
	// gone, as they would be had it never come, and this one starts the blob's list anew.
	now := s.now()
	s.expireLocked(now)
	c, err := s.containerLocked(cname)
	if err != nil {
		return err
	}
	sb := c.staged[name]
	if sb == nil {
		sb = &stagedBlob{c: c, name: name, blocks: make(map[string]content)}
		sb.elem = s.byAge.PushBack(sb)
		c.staged[name] = sb
	} else {
		s.byAge.MoveToBack(sb.elem)
	}
	sb.touched = now
	s.disk.addLive(content{e})
	if old, ok := sb.blocks[id]; ok {
		s.staged -= old.size()
		s.disk.dropLive(old)
	}
	sb.blocks[id] = content{e}
	s.staged += e.n
	return nil
}

// putBlockList commits refs as the blob's new content. Latest prefers the staged block, as
// the service does; a reference that resolves nowhere fails the whole commit. The new blob
// reuses the blocks' extents: nothing is copied.
func (s *store) putBlockList(cname, name string, refs []blockRef, props blobProps, now time.Time) (*blob, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expireLocked(s.now()) // an expired block is not committed, however late the sweep
	c, err := s.containerLocked(cname)
	if err != nil {
		return nil, err
	}
	var staged map[string]content
	if sb := c.staged[name]; sb != nil {
		staged = sb.blocks
	}
	old := c.blobs[name]
	committed := make(map[string]content)
	if old != nil {
		for _, cb := range old.blocks {
			committed[cb.id] = cb.c
		}
	}
	parts := make([]content, len(refs))
	var total int64
	for i, ref := range refs {
		var (
			d  content
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
		total += d.size()
	}
	if old == nil && s.maxBlobs > 0 && s.blobs >= s.maxBlobs {
		return nil, errFull("the fake holds its maximum of %d blobs", s.maxBlobs)
	}
	// The committed bytes grow by the new size less the old blob's; the staged blocks used
	// leave the staged allowance with the rest, discarded below.
	var oldSize int64
	if old != nil {
		oldSize = old.size
	}
	if err := s.committedRoomLocked(total - oldSize); err != nil {
		return nil, err
	}
	var data content
	blocks := make([]committedBlock, len(refs))
	for i, d := range parts {
		blocks[i] = committedBlock{id: refs[i].id, c: d}
		data = append(data, d...)
	}
	b := &blob{c: data, size: total, blocks: blocks, props: props, etag: s.newETag(now), lastModified: now, created: now}
	if old != nil {
		b.created = old.created
	}
	if err := s.journalLocked(blobRecord(cname, name, b)); err != nil {
		return nil, err
	}
	s.used += total - oldSize
	s.commitLocked(c, name, b)
	s.dropStagedLocked(c, name) // and the blocks not in the list with them, as the service does
	return b, nil
}

// getBlob returns the blob and holds its segments until release is called, so its bytes
// stay readable even if it is overwritten or deleted meanwhile.
func (s *store) getBlob(cname, name string) (*blob, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.containerLocked(cname)
	if err != nil {
		return nil, nil, err
	}
	b, ok := c.blobs[name]
	if !ok {
		return nil, nil, errorf(http.StatusNotFound, codeBlobNotFound, "the specified blob %q does not exist", name)
	}
	s.disk.ref(b.c)
	return b, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.disk.unref(b.c)
	}, nil
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
	if err := s.journalLocked(record{Op: opDropBlob, Container: cname, Name: name}); err != nil {
		return err
	}
	s.removeBlobLocked(c, name, b)
	s.dropStagedLocked(c, name)
	return nil
}

// usage reports the committed bytes, the staged bytes and the bytes on disk.
func (s *store) usage() (committed, staged, disk int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used, s.staged, s.disk.bytes
}

// close removes the bytes on disk; the store answers nothing afterwards.
func (s *store) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.disk.close()
}
