package blobserver

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Blob bytes live on disk, not in memory: under a 4000-user upload load an in-memory store
// grows by gigabytes in a minute. They are appended to segment files in a private temporary
// directory, and the store keeps only an index (names, properties and extents) in memory.
// Appending to a few large files costs one write per blob; a file per blob cost about
// 50 µs to create and 33 µs to delete on this repository's machine, a quarter of a core at
// the uploads' rate.
//
// A segment's space comes back when no live blob or staged block refers to it any more
// (and no read or write is using it); there is no compaction, so the space of a blob that
// was overwritten or deleted stays used while other live blobs share its segment. The
// directory is removed by Close, and a later store removes the directories left by
// processes that died without closing (see removeStale).

// segmentSize is the size at which the active segment is sealed and a new one started.
// Small enough that overwritten receipts (the order workflow rewrites one blob per order)
// free whole segments soon; large enough that the store needs few file descriptors.
const segmentSize = 16 << 20

// dirPrefix names the store's temporary directories: dirPrefix + pid + "-" + random.
const dirPrefix = "syncio-blobs-"

// segment is one append-only file. All fields but f are guarded by the store's mutex; f is
// safe for concurrent WriteAt/ReadAt at distinct or read-only offsets.
type segment struct {
	f    *os.File
	size int64 // bytes reserved, written or not
	live int64 // bytes referenced by live blobs and staged blocks
	refs int   // reads and writes in progress
	// sealed: no more appends; a sealed segment with nothing live and no refs is removed.
	sealed, removed bool
}

// extent is a run of bytes in a segment.
type extent struct {
	seg    *segment
	off, n int64
}

// content is a blob's or block's bytes: the concatenation of its extents. Extents are
// never modified once written, so a content value can be read without the store's lock
// as long as its segments are held (see store.acquire).
type content []extent

func (c content) size() int64 {
	var n int64
	for _, e := range c {
		n += e.n
	}
	return n
}

// slice returns the bytes [off, off+n) of c.
func (c content) slice(off, n int64) content {
	var out content
	for _, e := range c {
		if n <= 0 {
			break
		}
		if off >= e.n {
			off -= e.n
			continue
		}
		take := min(e.n-off, n)
		out = append(out, extent{seg: e.seg, off: e.off + off, n: take})
		n -= take
		off = 0
	}
	return out
}

// reader returns a reader of c's bytes.
func (c content) reader() io.Reader {
	rs := make([]io.Reader, len(c))
	for i, e := range c {
		rs[i] = io.NewSectionReader(e.seg.f, e.off, e.n)
	}
	return io.MultiReader(rs...)
}

// disk is the store's segment files. Its methods are called with the store's mutex held.
type disk struct {
	parent string // where the directory is made ("" = os.TempDir())
	dir    string // made on first use, or WithPath's
	// keep: dir is WithPath's, used as is and never removed, with a journal of the
	// index (see journal.go) and a lock against a second server.
	keep    bool
	journal *os.File // nil until open
	lock    *os.File
	log     *slog.Logger
	active  *segment
	segs    map[*segment]struct{} // not yet removed
	bytes   int64                 // size of the segment files not yet removed
	closed  bool
}

var errStoreClosed = errors.New("the blob store is closed")

// reserve makes room for n bytes at the end of the active segment, starting a new one when
// it is full, and holds the segment for the caller's write (release with unref).
func (d *disk) reserve(n int64) (extent, error) {
	if d.closed {
		return extent{}, errStoreClosed
	}
	if d.keep && d.journal == nil {
		return extent{}, errStoreNotOpen
	}
	if d.dir == "" {
		if err := d.makeDir(); err != nil {
			return extent{}, err
		}
	}
	if d.active == nil || (d.active.size > 0 && d.active.size+n > segmentSize) {
		f, err := os.CreateTemp(d.dir, "seg-*")
		if err != nil {
			return extent{}, fmt.Errorf("new segment: %w", err)
		}
		if old := d.active; old != nil {
			old.sealed = true
			d.maybeRemove(old)
		}
		d.active = &segment{f: f}
		if d.segs == nil {
			d.segs = make(map[*segment]struct{})
		}
		d.segs[d.active] = struct{}{}
	}
	seg := d.active
	e := extent{seg: seg, off: seg.size, n: n}
	seg.size += n
	seg.refs++
	d.bytes += n
	return e, nil
}

func (d *disk) makeDir() error {
	parent := d.parent
	if parent == "" {
		parent = os.TempDir()
	}
	removeStale(parent, d.log)
	dir, err := os.MkdirTemp(parent, dirPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("blob store directory: %w", err)
	}
	d.dir = dir
	return nil
}

// addLive and dropLive count c's bytes as referenced, or no longer, by a blob or block.
func (d *disk) addLive(c content) {
	for _, e := range c {
		e.seg.live += e.n
	}
}

func (d *disk) dropLive(c content) {
	for _, e := range c {
		e.seg.live -= e.n
		d.maybeRemove(e.seg)
	}
}

// ref and unref hold c's segments for a read, or release a write's reservation.
func (d *disk) ref(c content) {
	for _, e := range c {
		e.seg.refs++
	}
}

func (d *disk) unref(c content) {
	for _, e := range c {
		e.seg.refs--
		d.maybeRemove(e.seg)
	}
}

// maybeRemove deletes a sealed segment nothing refers to any more.
func (d *disk) maybeRemove(s *segment) {
	if s.removed || !s.sealed || s.live > 0 || s.refs > 0 {
		return
	}
	s.removed = true
	d.bytes -= s.size
	delete(d.segs, s)
	name := s.f.Name()
	if err := s.f.Close(); err != nil {
		d.log.Warn("blobserver: closing a segment", "file", name, "err", err)
	}
	if err := os.Remove(name); err != nil {
		d.log.Warn("blobserver: removing a segment", "file", name, "err", err)
	}
}

// close removes the directory with every segment (a kept one stays, see closeKept). Reads still in flight fail; the server
// has stopped serving by then.
func (d *disk) close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	if d.keep {
		return d.closeKept()
	}
	if d.active != nil {
		d.active.sealed = true
	}
	d.active = nil
	for s := range d.segs {
		s.removed = true
		_ = s.f.Close() // nothing was buffered: writes went straight to the file
	}
	d.segs, d.bytes = nil, 0
	if d.dir == "" {
		return nil
	}
	if err := os.RemoveAll(d.dir); err != nil {
		return fmt.Errorf("removing the blob store directory: %w", err)
	}
	return nil
}

// removeStale deletes the store directories under parent whose process is gone (killed
// before Close could remove them), so a restarted server does not leak the last run's disk.
func removeStale(parent string, log *slog.Logger) {
	matches, err := filepath.Glob(filepath.Join(parent, dirPrefix+"*"))
	if err != nil {
		return
	}
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), dirPrefix)
		pidStr, _, ok := strings.Cut(rest, "-")
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if err := os.RemoveAll(m); err != nil {
			log.Warn("blobserver: removing a dead process's blob directory", "dir", m, "err", err)
			continue
		}
		log.Info("blobserver: removed a dead process's blob directory", "dir", m)
	}
}
