package blobserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// A store kept with WithPath outlives its process. Blob bytes are in the segment files as
// always; what would be lost is the index, which lives in memory. So every change to it
// that a client is told about (a container created or deleted, a blob committed or
// deleted) is first appended to a journal, one JSON line per change, in the same
// directory, and a server started on the directory replays it.
//
// The journal is written before the change is made and answered, with one write call per
// line and no fsync: what a client was told survives the process being killed (the bytes
// are in the operating system's cache), not the machine losing power. Staged blocks
// (Put Block without its Put Block List) are not journalled: no client was told a blob
// exists, and a restarted store forgets them, as a running one forgets them after their
// expiry (see stagedBlob) and the service after a week. So a restart brings back no
// block, expired or not, and the segment files that only staged blocks used are removed
// with the other orphans.
//
// At start the journal is replayed and then rewritten with only the live state, so it
// grows with the changes of one run, not of every run. Segment files no live blob refers
// to (garbage, or writes cut short by a kill) are removed then, and holes are punched
// between the live extents of the others (see reclaimOpened), so the directory is counted
// at what it holds.

const (
	journalName = "journal"
	lockName    = "LOCK"
)

// Journal operations.
const (
	opContainer     = "container"
	opDropContainer = "dropContainer"
	opBlob          = "blob"
	opDropBlob      = "dropBlob"
)

// record is one line of the journal.
type record struct {
	Op        string            `json:"op"`
	Container string            `json:"c"`
	Name      string            `json:"n,omitempty"`
	ETag      string            `json:"etag,omitempty"`
	Modified  time.Time         `json:"mod,omitzero"`
	Created   time.Time         `json:"created,omitzero"`
	Metadata  map[string]string `json:"meta,omitempty"` // a container's
	Extents   []diskExtent      `json:"ext,omitempty"`  // a Put Blob's bytes
	Blocks    []diskBlock       `json:"blocks,omitempty"`
	Props     *diskProps        `json:"props,omitempty"`
}

type diskExtent struct {
	Seg string `json:"s"` // the segment file's base name
	Off int64  `json:"o"`
	N   int64  `json:"n"`
}

type diskBlock struct {
	ID      string       `json:"id"`
	Extents []diskExtent `json:"ext"`
}

type diskProps struct {
	ContentType        string            `json:"type,omitempty"`
	ContentEncoding    string            `json:"enc,omitempty"`
	ContentLanguage    string            `json:"lang,omitempty"`
	ContentDisposition string            `json:"disp,omitempty"`
	CacheControl       string            `json:"cache,omitempty"`
	ContentMD5         []byte            `json:"md5,omitempty"`
	Metadata           map[string]string `json:"meta,omitempty"`
}

func toDisk(c content) []diskExtent {
	out := make([]diskExtent, len(c))
	for i, e := range c {
		out[i] = diskExtent{Seg: filepath.Base(e.seg.f.Name()), Off: e.off, N: e.n}
	}
	return out
}

// blobRecord is the journal line that commits b as cname/name.
func blobRecord(cname, name string, b *blob) record {
	r := record{
		Op: opBlob, Container: cname, Name: name, ETag: b.etag, Modified: b.lastModified, Created: b.created,
		Props: &diskProps{
			ContentType: b.props.contentType, ContentEncoding: b.props.contentEncoding,
			ContentLanguage: b.props.contentLanguage, ContentDisposition: b.props.contentDisposition,
			CacheControl: b.props.cacheControl, ContentMD5: b.props.contentMD5, Metadata: b.props.metadata,
		},
	}
	if len(b.blocks) == 0 {
		r.Extents = toDisk(b.c)
		return r
	}
	r.Blocks = make([]diskBlock, len(b.blocks))
	for i, cb := range b.blocks {
		r.Blocks[i] = diskBlock{ID: cb.id, Extents: toDisk(cb.c)}
	}
	return r
}

// journalLocked appends r to the journal of a kept store; a temporary store keeps none.
// Called with the store's mutex held, before the change is made.
func (s *store) journalLocked(r record) error {
	d := &s.disk
	if !d.keep {
		return nil
	}
	if d.journal == nil {
		return errStoreNotOpen
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if _, err := d.journal.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

var errStoreNotOpen = errors.New("a store kept with WithPath is opened by Start")

// open loads a kept store from its directory: takes the lock, replays the journal,
// removes the segments no blob refers to and rewrites the journal with the live state.
func (s *store) open() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := &s.disk
	if err := os.MkdirAll(d.dir, 0o755); err != nil {
		return fmt.Errorf("blob store directory: %w", err)
	}
	lock, err := lockDir(filepath.Join(d.dir, lockName))
	if err != nil {
		return err
	}
	if err := s.replayLocked(); err != nil {
		_ = lock.Close()
		s.forgetLocked()
		return err
	}
	if err := s.rewriteJournalLocked(); err != nil {
		_ = lock.Close()
		s.forgetLocked()
		return err
	}
	d.lock = lock
	return nil
}

// forgetLocked drops what a failed open loaded, closing its segment files.
func (s *store) forgetLocked() {
	for seg := range s.disk.segs {
		_ = seg.f.Close()
	}
	s.disk.segs, s.disk.bytes = nil, 0
	s.containers = make(map[string]*container)
	s.used, s.blobs = 0, 0
}

// replayLocked applies the journal's lines in order, then opens the segments the live
// blobs refer to (a blob overwritten or deleted later in the journal may name a segment
// that is gone, rightly). A last line cut short (a write the process did not finish) is
// ignored; any other bad line, or a live blob's segment that is missing, stops the start:
// blobs a client was told about would be lost.
func (s *store) replayLocked() error {
	d := &s.disk
	path := filepath.Join(d.dir, journalName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		data, err = nil, nil
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	containers := make(map[string]*container)
	recs := make(map[*blob]*record)
	lines := bytes.Split(data, []byte{'\n'})
	for n, line := range lines {
		if len(line) == 0 {
			continue
		}
		r := new(record)
		if err := json.Unmarshal(line, r); err != nil {
			if n == len(lines)-1 { // no newline after it: a write cut short
				break
			}
			return fmt.Errorf("journal %s line %d: %w", path, n+1, err)
		}
		if err := applyRecord(containers, recs, r); err != nil {
			return fmt.Errorf("journal %s line %d: %w", path, n+1, err)
		}
	}

	segs := make(map[string]*segment)
	d.segs = make(map[*segment]struct{})
	resolve := func(des []diskExtent) (content, error) {
		c := make(content, len(des))
		for i, de := range des {
			seg := segs[de.Seg]
			if seg == nil {
				if strings.ContainsAny(de.Seg, `/\`) || !strings.HasPrefix(de.Seg, "seg-") {
					return nil, fmt.Errorf("bad segment name %q", de.Seg)
				}
				f, err := os.OpenFile(filepath.Join(d.dir, de.Seg), os.O_RDWR, 0)
				if err != nil {
					return nil, fmt.Errorf("segment: %w", err)
				}
				fi, err := f.Stat()
				if err != nil {
					_ = f.Close()
					return nil, fmt.Errorf("segment: %w", err)
				}
				seg = &segment{f: f, size: fi.Size(), sealed: true}
				segs[de.Seg] = seg
				d.segs[seg] = struct{}{}
			}
			if de.Off < 0 || de.N < 0 || de.Off+de.N > seg.size {
				return nil, fmt.Errorf("extent %+v outside its segment of %d bytes", de, seg.size)
			}
			c[i] = extent{seg: seg, off: de.Off, n: de.N}
		}
		return c, nil
	}
	for cname, c := range containers {
		for name, b := range c.blobs {
			r := recs[b]
			var err error
			if len(r.Blocks) == 0 {
				b.c, err = resolve(r.Extents)
			}
			for _, db := range r.Blocks {
				var part content
				if part, err = resolve(db.Extents); err != nil {
					break
				}
				b.blocks = append(b.blocks, committedBlock{id: db.ID, c: part})
				b.c = append(b.c, part...)
			}
			if err != nil {
				return fmt.Errorf("journal %s: blob %s/%s: %w", path, cname, name, err)
			}
			b.size = b.c.size()
			d.addLive(b.c)
			s.used += b.size
			s.blobs++
		}
	}
	for seg := range d.segs {
		d.reclaimOpened(seg)
	}
	s.containers = containers
	return removeOrphans(d)
}

// applyRecord makes the change r describes to containers; a blob's bytes are resolved
// later, from recs, once it is known to be live.
func applyRecord(containers map[string]*container, recs map[*blob]*record, r *record) error {
	switch r.Op {
	case opContainer:
		containers[r.Container] = &container{
			etag: r.ETag, lastModified: r.Modified, metadata: r.Metadata,
			blobs: make(map[string]*blob), staged: make(map[string]*stagedBlob),
		}
	case opDropContainer:
		delete(containers, r.Container)
	case opBlob, opDropBlob:
		c := containers[r.Container]
		if c == nil {
			return fmt.Errorf("%s in container %q, which does not exist", r.Op, r.Container)
		}
		if r.Op == opDropBlob {
			delete(c.blobs, r.Name)
			return nil
		}
		b := &blob{etag: r.ETag, lastModified: r.Modified, created: r.Created}
		if p := r.Props; p != nil {
			b.props = blobProps{
				contentType: p.ContentType, contentEncoding: p.ContentEncoding, contentLanguage: p.ContentLanguage,
				contentDisposition: p.ContentDisposition, cacheControl: p.CacheControl,
				contentMD5: p.ContentMD5, metadata: p.Metadata,
			}
		}
		c.blobs[r.Name] = b
		recs[b] = r
	default:
		return fmt.Errorf("unknown operation %q", r.Op)
	}
	return nil
}

// removeOrphans deletes the segment files of d.dir that no live blob refers to: garbage
// of an earlier run, or writes a kill cut short.
func removeOrphans(d *disk) error {
	live := make(map[string]bool, len(d.segs))
	for seg := range d.segs {
		live[filepath.Base(seg.f.Name())] = true
	}
	files, err := filepath.Glob(filepath.Join(d.dir, "seg-*"))
	if err != nil {
		return fmt.Errorf("blob store directory: %w", err)
	}
	for _, f := range files {
		if !live[filepath.Base(f)] {
			if err := os.Remove(f); err != nil {
				return fmt.Errorf("removing an unused segment: %w", err)
			}
		}
	}
	return nil
}

// rewriteJournalLocked replaces the journal with one line per live container and blob,
// then opens it for appending.
func (s *store) rewriteJournalLocked() error {
	d := &s.disk
	tmp, err := os.CreateTemp(d.dir, journalName+".tmp-*")
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	for name, c := range s.containers {
		if err = enc.Encode(record{Op: opContainer, Container: name, ETag: c.etag, Modified: c.lastModified, Metadata: c.metadata}); err != nil {
			break
		}
		for bname, b := range c.blobs {
			if err = enc.Encode(blobRecord(name, bname, b)); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	err = errors.Join(err, w.Flush(), tmp.Sync(), tmp.Close())
	path := filepath.Join(d.dir, journalName)
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("journal: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	d.journal = f
	return nil
}

// closeKept closes a kept store's files and lock, leaving the directory in place.
func (d *disk) closeKept() error {
	var err error
	for s := range d.segs {
		s.removed = true
		err = errors.Join(err, s.f.Close())
	}
	d.segs, d.bytes, d.active = nil, 0, nil
	if d.journal != nil {
		err = errors.Join(err, d.journal.Close())
		d.journal = nil
	}
	if d.lock != nil {
		err = errors.Join(err, d.lock.Close())
		d.lock = nil
	}
	if err != nil {
		return fmt.Errorf("closing the kept blob store: %w", err)
	}
	return nil
}
