package blobserver_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/fakes/blobserver"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func blockID(name string) string { return base64.StdEncoding.EncodeToString([]byte(name)) }

// putBlock stages body as block id of box/blob.
func putBlock(t *testing.T, h http.Handler, blob, id string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	return do(t, h, "PUT", base+"/box/"+blob+"?comp=block&blockid="+url.QueryEscape(blockID(id)), body, nil)
}

// commitBlocks commits the blocks ids, in order, as box/blob.
func commitBlocks(t *testing.T, h http.Handler, blob string, ids ...string) *httptest.ResponseRecorder {
	t.Helper()
	var b strings.Builder
	b.WriteString("<BlockList>")
	for _, id := range ids {
		b.WriteString("<Latest>" + blockID(id) + "</Latest>")
	}
	b.WriteString("</BlockList>")
	return do(t, h, "PUT", base+"/box/"+blob+"?comp=blocklist", []byte(b.String()), nil)
}

// The store: uploads that staged blocks and never committed them filled it, and every
// later upload got 507. Staged bytes have an allowance of their own, so they never take the
// room of committed ones, and committing moves them from one to the other.
func TestOnlyCommittedBytesCountTowardTheCap(t *testing.T) {
	s := newServer(t, blobserver.WithMaxBytes(10_000))
	h := newContainer(t, s, "box")
	mustStatus(t, putBlock(t, h, "aborted", "1", make([]byte, 6000)), http.StatusCreated, "")
	mustStatus(t, putBlock(t, h, "aborted", "2", make([]byte, 4000)), http.StatusCreated, "")
	if got := s.StagedBytes(); got != 10_000 {
		t.Fatalf("staged %d bytes, want 10000", got)
	}
	mustStatus(t, do(t, h, "PUT", base+"/box/small", make([]byte, 8000), blockBlob), http.StatusCreated, "")
	full := putBlock(t, h, "other", "1", []byte("x"))
	mustStatus(t, full, http.StatusInsufficientStorage, "FakeStorageFull")
	if !strings.Contains(full.Body.String(), "uncommitted") {
		t.Errorf("a 507 for staged room does not say so: %s", full.Body.String())
	}
	mustStatus(t, do(t, h, "PUT", base+"/box/more", make([]byte, 3000), blockBlob), http.StatusInsufficientStorage, "FakeStorageFull")
	// Committing 10 000 bytes next to 8000 committed would pass the cap: refused, and the
	// blocks stay staged for a later try.
	mustStatus(t, commitBlocks(t, h, "aborted", "1", "2"), http.StatusInsufficientStorage, "FakeStorageFull")
	if got := s.StagedBytes(); got != 10_000 {
		t.Fatalf("a refused commit changed the staged bytes to %d", got)
	}
	mustStatus(t, do(t, h, "DELETE", base+"/box/small", nil, nil), http.StatusAccepted, "")
	mustStatus(t, commitBlocks(t, h, "aborted", "1", "2"), http.StatusCreated, "")
	if staged, used := s.StagedBytes(), s.UsedBytes(); staged != 0 || used != 10_000 {
		t.Fatalf("after the commit %d bytes staged, %d held; want 0 and 10000", staged, used)
	}
	if g := do(t, h, "GET", base+"/box/aborted", nil, nil); g.Code != http.StatusOK || g.Body.Len() != 10_000 {
		t.Fatalf("committed blob: %d, %d bytes", g.Code, g.Body.Len())
	}
}

// Staged blocks that nobody commits are discarded once the blob has seen no Put Block for
// the expiry, and the room they held is given back; committed blobs are untouched.
func TestStagedBlocksExpire(t *testing.T) {
	clock := newFakeClock()
	s := newServer(t, blobserver.WithMaxBytes(10_000), blobserver.WithStagedBlockExpiry(time.Minute), blobserver.WithClock(clock.Now))
	h := newContainer(t, s, "box")
	for i := range 4 { // four aborted uploads fill the staged room
		mustStatus(t, putBlock(t, h, fmt.Sprintf("aborted-%d", i), "1", make([]byte, 2500)), http.StatusCreated, "")
	}
	mustStatus(t, do(t, h, "PUT", base+"/box/kept", []byte("acknowledged"), blockBlob), http.StatusCreated, "")
	mustStatus(t, putBlock(t, h, "next", "1", make([]byte, 2500)), http.StatusInsufficientStorage, "FakeStorageFull")

	clock.Advance(time.Minute - time.Nanosecond)
	mustStatus(t, putBlock(t, h, "next", "1", make([]byte, 2500)), http.StatusInsufficientStorage, "FakeStorageFull")
	clock.Advance(time.Nanosecond)
	mustStatus(t, putBlock(t, h, "next", "1", make([]byte, 2500)), http.StatusCreated, "")
	if got := s.StagedBytes(); got != 2500 {
		t.Fatalf("after the expiry %d bytes staged, want only the new block's 2500", got)
	}
	mustStatus(t, commitBlocks(t, h, "next", "1"), http.StatusCreated, "")
	for i := range 4 {
		mustStatus(t, commitBlocks(t, h, fmt.Sprintf("aborted-%d", i), "1"), http.StatusBadRequest, "InvalidBlockList")
	}
	if g := do(t, h, "GET", base+"/box/kept", nil, nil); g.Code != http.StatusOK || g.Body.String() != "acknowledged" {
		t.Fatalf("a committed blob after the expiry: %d %q", g.Code, g.Body.String())
	}
	if got := s.UsedBytes(); got != int64(len("acknowledged"))+2500 {
		t.Fatalf("%d bytes held, want the two committed blobs' %d", got, len("acknowledged")+2500)
	}
}

// As in the service, the expiry counts from a blob's last Put Block, not from each block's:
// an upload that keeps staging keeps its first blocks.
func TestStagingKeepsAnUploadsBlocks(t *testing.T) {
	clock := newFakeClock()
	s := newServer(t, blobserver.WithStagedBlockExpiry(time.Minute), blobserver.WithClock(clock.Now))
	h := newContainer(t, s, "box")
	mustStatus(t, putBlock(t, h, "slow", "1", []byte("first ")), http.StatusCreated, "")
	clock.Advance(40 * time.Second)
	mustStatus(t, putBlock(t, h, "slow", "2", []byte("second")), http.StatusCreated, "")
	clock.Advance(40 * time.Second) // 80 s after the first block, 40 s after the last
	mustStatus(t, commitBlocks(t, h, "slow", "1", "2"), http.StatusCreated, "")
	if g := do(t, h, "GET", base+"/box/slow", nil, nil); g.Body.String() != "first second" {
		t.Fatalf("committed %q", g.Body.String())
	}
}

// The API gives a failed upload's staged room back at once with a Put Blob of 0 bytes and a
// Delete Blob on its name, as the service discards a blob's uncommitted blocks on both.
func TestPutBlobAndDeleteReleaseStagedBlocksAtOnce(t *testing.T) {
	s := newServer(t, blobserver.WithMaxBytes(10_000))
	h := newContainer(t, s, "box")
	mustStatus(t, putBlock(t, h, "failed", "1", make([]byte, 6000)), http.StatusCreated, "")
	mustStatus(t, putBlock(t, h, "failed", "2", make([]byte, 4000)), http.StatusCreated, "")
	mustStatus(t, putBlock(t, h, "other", "1", make([]byte, 100)), http.StatusInsufficientStorage, "FakeStorageFull")

	mustStatus(t, do(t, h, "PUT", base+"/box/failed", []byte{}, blockBlob), http.StatusCreated, "")
	if got := s.StagedBytes(); got != 0 {
		t.Fatalf("after Put Blob %d bytes still staged", got)
	}
	mustStatus(t, putBlock(t, h, "other", "1", make([]byte, 100)), http.StatusCreated, "")
	mustStatus(t, do(t, h, "DELETE", base+"/box/failed", nil, nil), http.StatusAccepted, "")
	mustStatus(t, do(t, h, "GET", base+"/box/failed", nil, nil), http.StatusNotFound, "BlobNotFound")
	mustStatus(t, commitBlocks(t, h, "failed", "1", "2"), http.StatusBadRequest, "InvalidBlockList")

	// Deleting a committed blob discards its staged blocks too, and only its own.
	mustStatus(t, do(t, h, "PUT", base+"/box/c", []byte("c"), blockBlob), http.StatusCreated, "")
	mustStatus(t, putBlock(t, h, "c", "n", make([]byte, 50)), http.StatusCreated, "")
	mustStatus(t, do(t, h, "DELETE", base+"/box/c", nil, nil), http.StatusAccepted, "")
	if staged, used := s.StagedBytes(), s.UsedBytes(); staged != 100 || used != 100 {
		t.Fatalf("%d bytes staged, %d held; want other's 100 alone", staged, used)
	}
	mustStatus(t, commitBlocks(t, h, "other", "1"), http.StatusCreated, "")
}

// A kept store discards expired blocks' bytes from disk as it runs (a segment file that held
// only them is removed), and a restart brings back no staged block, expired or not, nor
// keeps a file that only staged blocks used.
func TestKeptStoreDropsStagedBlocksAndTheirFiles(t *testing.T) {
	clock := newFakeClock()
	dir := filepath.Join(t.TempDir(), "kept")
	s := newServer(t, blobserver.WithPath(dir), blobserver.WithStagedBlockExpiry(time.Minute), blobserver.WithClock(clock.Now))
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	h := newContainer(t, s, "box")
	half := make([]byte, blobserver.SegmentSize/2+1) // no two share a segment file
	mustStatus(t, putBlock(t, h, "aborted", "1", half), http.StatusCreated, "")
	onlyStaged := segments(t, dir)
	if len(onlyStaged) != 1 {
		t.Fatalf("segments after one block: %v", onlyStaged)
	}
	mustStatus(t, putBlock(t, h, "aborted", "2", half), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/a", []byte("alpha"), blockBlob), http.StatusCreated, "")

	clock.Advance(time.Minute)
	mustStatus(t, putBlock(t, h, "late", "1", half), http.StatusCreated, "") // a write notices the expiry
	if slices.Contains(segments(t, dir), onlyStaged[0]) {
		t.Errorf("the segment file of an expired block is still there: %v", segments(t, dir))
	}
	if got := s.StagedBytes(); got != int64(len(half)) {
		t.Errorf("%d bytes staged, want late's %d", got, len(half))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	again := startKept(t, dir)
	h = again.Handler()
	if got := again.StagedBytes(); got != 0 {
		t.Errorf("a restart brought back %d staged bytes", got)
	}
	if got := segments(t, dir); len(got) != 1 {
		t.Errorf("after a restart %d segment files, want a's alone: %v", len(got), got)
	}
	if g := do(t, h, "GET", base+"/box/a", nil, nil); g.Body.String() != "alpha" {
		t.Fatalf("a after a restart: %d %q", g.Code, g.Body.String())
	}
	mustStatus(t, commitBlocks(t, h, "aborted", "1", "2"), http.StatusBadRequest, "InvalidBlockList")
	mustStatus(t, commitBlocks(t, h, "late", "1"), http.StatusBadRequest, "InvalidBlockList")
	if got := again.UsedBytes(); got != int64(len("alpha")) {
		t.Errorf("after a restart %d bytes held, want a's 5", got)
	}
}

// A started server discards expired blocks with no request to notice them.
func TestIdleServerDiscardsExpiredBlocks(t *testing.T) {
	s := newServer(t, blobserver.WithStagedBlockExpiry(10*time.Millisecond))
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	h := newContainer(t, s, "box")
	mustStatus(t, putBlock(t, h, "idle", "1", make([]byte, 100)), http.StatusCreated, "")
	for deadline := time.Now().Add(10 * time.Second); s.StagedBytes() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes still staged long after a 10 ms expiry, with no request", s.StagedBytes())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := s.UsedBytes(); got != 0 {
		t.Fatalf("%d bytes held after the expiry", got)
	}
}
