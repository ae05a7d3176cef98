package blobserver

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
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
// A segment's file is removed when no live blob or staged block refers to it any more (and
// no read or write is using it). Before that, the space of an extent nothing refers to any
// more (an overwritten or deleted blob, a discarded or aborted block) is given back by
// punching a hole over it (Linux's fallocate PUNCH_HOLE), once no read or write holds its
// segment: a reader that found the old blob before it was overwritten may still be reading
// it, while new readers reach only live extents through the index. Live data is never
// moved, and there is no compaction: what stays is the live extents and the partial
// filesystem blocks at a hole's ends. Where holes cannot be punched (not Linux, or a
// filesystem that refuses) a dead extent's space comes back only with its whole segment,
// so live blobs that share segments with garbage keep it used. The directory is removed
// by Close, and a later store removes the directories left by processes that died without
// closing (see removeStale).

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
	// extents counts the blobs and staged blocks referring to each live extent (a block
	// committed by Put Block List is referred to by the blob and, until the list's staged
	// blocks are discarded, by the block). Live extents are whole reservations, which never
	// overlap, so an extent that leaves this map holds no byte anything live refers to.
	extents map[span]int
	dead    []span // extents that left extents, to punch once refs is 0
	punched int64  // size less what the file held when last counted (see recount)
	// sealed: no more appends; a sealed segment with nothing live and no refs is removed.
	sealed, removed bool
}

// span is an extent's place in its segment.
type span struct{ off, n int64 }

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
	bytes   int64                 // disk held by the segments not yet removed: size less holes
	closed  bool
	// noHoles: punching a hole failed as unsupported once; dead space then waits for its
	// whole segment, as it did before holes.
	noHoles bool
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
// An extent no longer referred to at all is dead: its hole is punched once its segment is
// not held (see maybeRemove).
func (d *disk) addLive(c content) {
	for _, e := range c {
		e.seg.live += e.n
		if e.n > 0 {
			if e.seg.extents == nil {
				e.seg.extents = make(map[span]int)
			}
			e.seg.extents[span{e.off, e.n}]++
		}
	}
}

func (d *disk) dropLive(c content) {
	for _, e := range c {
		e.seg.live -= e.n
		if k := (span{e.off, e.n}); e.n > 0 {
			if left := e.seg.extents[k] - 1; left > 0 {
				e.seg.extents[k] = left
			} else {
				delete(e.seg.extents, k)
				e.seg.dead = append(e.seg.dead, k)
			}
		}
		d.maybeRemove(e.seg)
	}
}

// discard marks a reservation that never became live (an aborted or refused write) dead,
// before its unref.
func (d *disk) discard(e extent) {
	if e.n > 0 {
		e.seg.dead = append(e.seg.dead, span{e.off, e.n})
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

// maybeRemove deletes a sealed segment nothing refers to any more, or else punches the
// holes of its dead extents if no read or write holds it: a read holding it may be of an
// overwritten blob's extents, which must keep their bytes until it ends.
func (d *disk) maybeRemove(s *segment) {
	if s.removed {
		return
	}
	if s.refs > 0 {
		return
	}
	if !s.sealed || s.live > 0 {
		d.punchDead(s)
		return
	}
	s.removed = true
	d.bytes -= s.size - s.punched
	delete(d.segs, s)
	name := s.f.Name()
	if err := s.f.Close(); err != nil {
		d.log.Warn("blobserver: closing a segment", "file", name, "err", err)
	}
	if err := os.Remove(name); err != nil {
		d.log.Warn("blobserver: removing a segment", "file", name, "err", err)
	}
}

// punchDead punches a hole over each of s's dead extents and counts s at what its file
// then holds. s is not held by any read or write (refs is 0).
func (d *disk) punchDead(s *segment) {
	dead := s.dead
	s.dead = nil
	if d.noHoles || len(dead) == 0 {
		return
	}
	for _, k := range dead {
		d.punch(s, k)
	}
	d.recount(s)
}

// punch makes a hole over k in s; where holes are unsupported it logs so once, and sets
// noHoles.
func (d *disk) punch(s *segment, k span) {
	if d.noHoles {
		return
	}
	err := punchHole(s.f, k.off, k.n)
	if errors.Is(err, errors.ErrUnsupported) {
		d.noHoles = true
		d.log.Info("blobserver: cannot punch holes in segment files; the space of overwritten and deleted blobs "+
			"and discarded blocks comes back only with a whole segment", "dir", d.dir, "err", err)
		return
	}
	if err != nil {
		d.log.Warn("blobserver: punching a hole in a segment", "file", s.f.Name(), "off", k.off, "n", k.n, "err", err)
	}
}

// recount counts s, which no write holds, at the disk its file holds (never more than its
// size). Asking the file rather than adding up holes also gives back what a hole's ends
// share with a neighbouring hole, and the never written tail of an aborted write.
func (d *disk) recount(s *segment) {
	a, err := allocated(s.f)
	if err != nil {
		return
	}
	punched := s.size - min(a, s.size)
	d.bytes -= punched - s.punched
	s.punched = punched
}

// reclaimOpened is for a segment of a reopened kept store, whose live extents are in
// s.extents and which nothing holds: it punches the holes between them (what was dead when
// the last run stopped, punched or not, and writes a kill cut short) and counts what the
// file holds, so a restart does not bring back into the count the space the last run gave
// back.
func (d *disk) reclaimOpened(s *segment) {
	live := make([]span, 0, len(s.extents))
	for k := range s.extents {
		live = append(live, k)
	}
	slices.SortFunc(live, func(a, b span) int { return cmp.Compare(a.off, b.off) })
	var at int64
	for _, k := range append(live, span{s.size, 0}) {
		if k.off > at {
			d.punch(s, span{at, k.off - at})
		}
		at = max(at, k.off+k.n)
	}
	d.bytes += s.size
	d.recount(s)
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
