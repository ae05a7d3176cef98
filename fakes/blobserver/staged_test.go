package blobserver_test

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/syncio/syncio/fakes/blobserver"
)

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
