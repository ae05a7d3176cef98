package blobserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// holesOrSkip skips the test where dir's filesystem cannot punch holes: the store then
// keeps dead space until its whole segment goes, by design. It calls fallocate itself, not
// the store, so that the tests also build, and fail, on a store without holes.
func holesOrSkip(t *testing.T, dir string) {
	t.Helper()
	f, err := os.CreateTemp(dir, "holes-*")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	if _, err := f.Write(make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fallocate(int(f.Fd()), 0x01|0x02, 0, 64<<10); err != nil { // KEEP_SIZE|PUNCH_HOLE
		if errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
			t.Skipf("%s cannot punch holes: %v", dir, err)
		}
		t.Fatal(err)
	}
}

// pattern is n bytes that all say which write they came from: a reader that got zeros
// from a hole, or another write's bytes, sees a mix.
func pattern(version byte, n int) []byte { return bytes.Repeat([]byte{version}, n) }

// holedStore is a store in a test's directory that holes can be punched in.
func holedStore(t *testing.T, capacity int64) *store {
	t.Helper()
	dir := t.TempDir()
	holesOrSkip(t, dir)
	s := newStore(capacity, slog.New(slog.DiscardHandler))
	s.disk.parent = dir
	t.Cleanup(func() { _ = s.close() })
	if _, err := s.createContainer("box", nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	return s
}

// stageBlock writes data as staged block id of box/name, as Put Block does.
func (s *store) stageBlock(name, id string, data []byte) error {
	e, err := s.beginWrite("box", name, id, int64(len(data)))
	if err != nil {
		return err
	}
	if _, err := e.seg.f.WriteAt(data, e.off); err != nil {
		s.abortWrite(e, true)
		return err
	}
	return s.commitBlock("box", name, id, e)
}

func readAll(t *testing.T, s *store, name string) []byte {
	t.Helper()
	b, release, err := s.getBlob("box", name)
	if err != nil {
		t.Fatalf("get %s: %v", name, err)
	}
	defer release()
	data, err := io.ReadAll(b.c.reader())
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return data
}

// TestAbortedUploadsBetweenCommitsKeepRoom is the aborted-uploads probe in small: large
// uploads that stage blocks and are then released, each followed by a small committed blob
// that keeps its segment. Without holes every segment kept its discarded blocks' space, the
// directory reached twice the cap and staged allowance (32 MiB here) with 2 MiB committed,
// and every write got 507; with them the directory holds about what is live.
func TestAbortedUploadsBetweenCommitsKeepRoom(t *testing.T) {
	const capacity = 8 << 20
	s := holedStore(t, capacity)
	now := time.Now()
	small := make(map[string][]byte)
	for i := range 32 { // 128 MiB of blocks, four times the directory's limit
		if err := s.stageBlock("big", "b", pattern(byte(i+1), 4<<20)); err != nil {
			_, _, d := s.usage()
			t.Fatalf("abort %d: Put Block: %v (directory %d bytes)", i, err, d)
		}
		name := fmt.Sprintf("small-%d", i)
		small[name] = pattern(byte(i+100), 64<<10)
		if _, err := s.putBytes("box", name, small[name], blobProps{}, now); err != nil {
			_, _, d := s.usage()
			t.Fatalf("abort %d: Put Blob: %v (directory %d bytes)", i, err, d)
		}
		// What the API does for an upload that failed after staging: a Put Blob of 0 bytes
		// and a Delete Blob, which discard the blob's staged blocks.
		if _, err := s.putBytes("box", "big", nil, blobProps{}, now); err != nil {
			t.Fatal(err)
		}
		if err := s.deleteBlob("box", "big"); err != nil {
			t.Fatal(err)
		}
	}
	committed, _, d := s.usage()
	// Each hole leaves at most a filesystem block at either end allocated.
	if d > committed+1<<20 {
		t.Errorf("the directory counts %d bytes with %d committed; the discarded blocks' space was not given back", d, committed)
	}
	for name, want := range small {
		if got := readAll(t, s, name); !bytes.Equal(got, want) {
			t.Fatalf("%s read back wrong", name)
		}
	}
}

// TestHoleWaitsForReaders: a read that found a blob before it was overwritten and deleted
// reads its old bytes intact, however the store changes meanwhile; the old bytes' space is
// given back when the read ends.
func TestHoleWaitsForReaders(t *testing.T) {
	s := holedStore(t, 0)
	now := time.Now()
	const n = 1 << 20
	if _, err := s.putBytes("box", "a", pattern(1, n), blobProps{}, now); err != nil {
		t.Fatal(err)
	}
	b, release, err := s.getBlob("box", "a")
	if err != nil {
		t.Fatal(err)
	}
	r := b.c.reader()
	first := make([]byte, n/2)
	if _, err := io.ReadFull(r, first); err != nil {
		t.Fatal(err)
	}
	// Overwrite and delete a, and drop a staged block beside it, all in a's segment.
	if _, err := s.putBytes("box", "a", pattern(2, n), blobProps{}, now); err != nil {
		t.Fatal(err)
	}
	if err := s.deleteBlob("box", "a"); err != nil {
		t.Fatal(err)
	}
	if err := s.stageBlock("c", "x", pattern(3, n)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.putBytes("box", "c", pattern(4, 4096), blobProps{}, now); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := append(first, rest...); !bytes.Equal(got, pattern(1, n)) {
		t.Fatalf("a reader of the overwritten blob read other bytes than its %d bytes of 1s (a hole under it?)", n)
	}
	_, _, held := s.usage()
	release()
	_, _, after := s.usage()
	// a's two versions and the staged block are dead: 3 MiB, less a block at each end.
	if freed := held - after; freed < 3*n-64<<10 {
		t.Errorf("the read's end gave back %d bytes, want the dead 3 MiB", freed)
	}
	if got := readAll(t, s, "c"); !bytes.Equal(got, pattern(4, 4096)) {
		t.Errorf("c, live beside the holes, read back wrong")
	}

	// Readers racing overwrites: each read sees one version whole, never zeros.
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				b, release, err := s.getBlob("box", "c")
				if err != nil {
					t.Error(err)
					return
				}
				data, err := io.ReadAll(b.c.reader())
				release()
				if err != nil || len(data) == 0 || !bytes.Equal(data, pattern(data[0], len(data))) || data[0] == 0 {
					t.Errorf("a read racing overwrites got a mixed or zeroed blob (err %v)", err)
					return
				}
			}
		})
	}
	for i := range 200 {
		if _, err := s.putBytes("box", "c", pattern(byte(i%250+5), 64<<10+i*512), blobProps{}, now); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

// TestKeptStoreKeepsHolesAcrossRestart: the directory of a kept store is counted at what it
// holds when reopened, not at its files' sizes, which still span the holes; a restart does
// not bring the dead space back into the count.
func TestKeptStoreKeepsHolesAcrossRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kept")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	holesOrSkip(t, dir)
	open := func() *Server {
		srv := New(WithPath(dir), WithLogger(slog.New(slog.DiscardHandler)))
		if err := srv.Start("127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		return srv
	}
	first := open()
	s := first.store
	now := time.Now()
	if _, err := s.createContainer("box", nil, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.putBytes("box", "s", pattern(9, 10_000), blobProps{}, now); err != nil {
		t.Fatal(err)
	}
	for v := range byte(3) { // one 16 MiB segment: 12 MiB of x, 9 MiB of it overwritten
		if _, err := s.putBytes("box", "x", pattern(v+1, 3<<20), blobProps{}, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.stageBlock("y", "b", pattern(7, 2<<20)); err != nil { // staged: forgotten at restart
		t.Fatal(err)
	}
	live := int64(3<<20 + 10_000)
	before := first.DiskBytes()
	if before > live+2<<20+1<<20 {
		t.Errorf("before the restart the directory counts %d bytes for %d live and 2 MiB staged", before, live)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := open()
	defer func() { _ = second.Close() }()
	if after := second.DiskBytes(); after > live+1<<20 {
		t.Errorf("after the restart the directory counts %d bytes for %d live (%d before it)", after, live, before)
	}
	if got := readAll(t, second.store, "x"); !bytes.Equal(got, pattern(3, 3<<20)) {
		t.Errorf("x read back wrong after the restart")
	}
	if got := readAll(t, second.store, "s"); !bytes.Equal(got, pattern(9, 10_000)) {
		t.Errorf("s read back wrong after the restart")
	}
}

// TestDeadSegmentIsRemoved: a sealed segment whose every extent is dead is still removed,
// holes or not; without holes (as where the filesystem refuses them) a dead extent's space
// stays counted until then.
func TestDeadSegmentIsRemoved(t *testing.T) {
	for _, holes := range []bool{true, false} {
		t.Run(fmt.Sprintf("holes=%v", holes), func(t *testing.T) {
			s := holedStore(t, 0)
			s.disk.noHoles = !holes
			now := time.Now()
			const n = 6 << 20 // a and b fill the first segment; c starts the second
			for i, name := range []string{"a", "b", "c"} {
				if _, err := s.putBytes("box", name, pattern(byte(i+1), n), blobProps{}, now); err != nil {
					t.Fatal(err)
				}
			}
			_, _, full := s.usage()
			if err := s.deleteBlob("box", "a"); err != nil {
				t.Fatal(err)
			}
			_, _, d := s.usage()
			if freed := full - d; holes && freed < n-64<<10 || !holes && freed != 0 {
				t.Errorf("deleting a gave back %d bytes", freed)
			}
			if err := s.deleteBlob("box", "b"); err != nil {
				t.Fatal(err)
			}
			files, err := filepath.Glob(filepath.Join(s.disk.dir, "seg-*"))
			if err != nil {
				t.Fatal(err)
			}
			if _, _, d := s.usage(); len(files) != 1 || d > n+64<<10 {
				t.Errorf("after a and b are deleted: %d segment files, %d bytes counted; want c's alone", len(files), d)
			}
			if got := readAll(t, s, "c"); !bytes.Equal(got, pattern(3, n)) {
				t.Errorf("c read back wrong")
			}
		})
	}
}
