package blobserver_test

import (
	"encoding/base64"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/syncio/syncio/fakes/blobserver"
)

// startKept starts a server keeping its store in dir, closed when the test ends.
func startKept(t *testing.T, dir string) *blobserver.Server {
	t.Helper()
	s := newServer(t, blobserver.WithPath(dir))
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("Start on %s: %v", dir, err)
	}
	return s
}

func segments(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "seg-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestKeptStoreSurvivesRestart: with WithPath, what was committed (Put Blob, Put Block
// List, overwrites, deletes, containers) is served by the next server on the directory,
// with its properties; Close leaves the directory; the journal is rewritten with the live
// state only, and segments nothing live refers to are removed.
func TestKeptStoreSurvivesRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kept")
	id := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

	first := startKept(t, dir)
	h := newContainer(t, first, "box")
	mustStatus(t, do(t, h, "PUT", base+"/box/a", []byte("alpha"), map[string]string{"x-ms-blob-type": "BlockBlob", "x-ms-blob-content-type": "text/plain"}), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", []byte("old bytes"), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", []byte("new"), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/gone", []byte("x"), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "DELETE", base+"/box/gone", nil, nil), http.StatusAccepted, "")
	for _, blk := range []struct{ id, data string }{{"one", "111"}, {"two", "22"}} {
		mustStatus(t, do(t, h, "PUT", base+"/box/d?comp=block&blockid="+id(blk.id), []byte(blk.data), nil), http.StatusCreated, "")
	}
	list := "<BlockList><Latest>" + id("two") + "</Latest><Latest>" + id("one") + "</Latest></BlockList>"
	mustStatus(t, do(t, h, "PUT", base+"/box/d?comp=blocklist", []byte(list), nil), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/staged?comp=block&blockid="+id("s"), []byte("never committed"), nil), http.StatusCreated, "")
	newContainer(t, first, "dropped")
	mustStatus(t, do(t, h, "DELETE", base+"/dropped?restype=container", nil, nil), http.StatusAccepted, "")
	etag := do(t, h, "HEAD", base+"/box/a", nil, nil).Header().Get("ETag")
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("Close removed the kept directory: %v", err)
	}

	second := startKept(t, dir)
	h = second.Handler()
	for name, want := range map[string]string{"a": "alpha", "b": "new", "d": "22111"} {
		g := do(t, h, "GET", base+"/box/"+name, nil, nil)
		if g.Code != http.StatusOK || g.Body.String() != want {
			t.Errorf("after restart, %s: %d %q, want %q", name, g.Code, g.Body.String(), want)
		}
	}
	if g := do(t, h, "HEAD", base+"/box/a", nil, nil); g.Header().Get("Content-Type") != "text/plain" || g.Header().Get("ETag") != etag {
		t.Errorf("after restart, a's properties: %v, want text/plain and ETag %s", g.Header(), etag)
	}
	mustStatus(t, do(t, h, "GET", base+"/box/gone", nil, nil), http.StatusNotFound, "BlobNotFound")
	mustStatus(t, do(t, h, "GET", base+"/dropped/x", nil, nil), http.StatusNotFound, "ContainerNotFound")
	list = "<BlockList><Latest>" + id("s") + "</Latest></BlockList>"
	mustStatus(t, do(t, h, "PUT", base+"/box/staged?comp=blocklist", []byte(list), nil), http.StatusBadRequest, "InvalidBlockList")
	if got := second.UsedBytes(); got != int64(len("alpha")+len("new")+len("22111")) {
		t.Errorf("after restart %d bytes held, want the three live blobs' 13", got)
	}
	journal, err := os.ReadFile(filepath.Join(dir, "journal"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(journal), "\n"); lines != 4 {
		t.Errorf("rewritten journal has %d lines, want 4 (a container, three blobs):\n%s", lines, journal)
	}
	// Writes go on after a restart, and the next start sees them too.
	mustStatus(t, do(t, h, "PUT", base+"/box/e", []byte("echo"), blockBlob), http.StatusCreated, "")
	if err := second.Close(); err != nil {
		t.Fatal(err)
	}
	third := startKept(t, dir)
	if g := do(t, third.Handler(), "GET", base+"/box/e", nil, nil); g.Body.String() != "echo" {
		t.Errorf("a write after a restart, after another: %d %q", g.Code, g.Body.String())
	}
	for _, seg := range segments(t, dir) {
		if fi, err := os.Stat(seg); err != nil || fi.Size() == 0 {
			t.Errorf("segment %s: %v", seg, err)
		}
	}
}

// TestKeptStoreOneServerAtATime: a second server on a directory in use fails to start,
// naming it; once the first closes, it starts.
func TestKeptStoreOneServerAtATime(t *testing.T) {
	dir := t.TempDir()
	first := startKept(t, dir)
	other := blobserver.New(blobserver.WithPath(dir))
	err := other.Start("127.0.0.1:0")
	if err == nil || !strings.Contains(err.Error(), "in use by another server") {
		t.Errorf("second server on %s: %v, want an in-use error", dir, err)
	}
	_ = other.Close()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	startKept(t, dir)
}

// TestKeptStoreJournalDamage: a last journal line cut short (a kill mid-write) is ignored;
// a bad line before the end, or a live blob whose segment is missing, stops the start with
// an error naming it, since starting would silently lose blobs.
func TestKeptStoreJournalDamage(t *testing.T) {
	setUp := func(t *testing.T) string {
		dir := t.TempDir()
		s := blobserver.New(blobserver.WithPath(dir))
		if err := s.Start("127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		h := newContainer(t, s, "box")
		mustStatus(t, do(t, h, "PUT", base+"/box/a", []byte("alpha"), blockBlob), http.StatusCreated, "")
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	appendJournal := func(t *testing.T, dir, text string) {
		f, err := os.OpenFile(filepath.Join(dir, "journal"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("cut-last-line", func(t *testing.T) {
		dir := setUp(t)
		appendJournal(t, dir, `{"op":"blob","c":"box","n":"half`)
		s := startKept(t, dir)
		if g := do(t, s.Handler(), "GET", base+"/box/a", nil, nil); g.Body.String() != "alpha" {
			t.Errorf("a: %d %q", g.Code, g.Body.String())
		}
	})
	t.Run("bad-line", func(t *testing.T) {
		dir := setUp(t)
		appendJournal(t, dir, "not json\n"+`{"op":"dropBlob","c":"box","n":"a"}`+"\n")
		s := blobserver.New(blobserver.WithPath(dir))
		defer s.Close()
		if err := s.Start("127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "line 3") {
			t.Errorf("Start with a bad line 3: %v, want an error naming it", err)
		}
	})
	t.Run("missing-segment", func(t *testing.T) {
		dir := setUp(t)
		for _, seg := range segments(t, dir) {
			if err := os.Remove(seg); err != nil {
				t.Fatal(err)
			}
		}
		s := blobserver.New(blobserver.WithPath(dir))
		defer s.Close()
		if err := s.Start("127.0.0.1:0"); err == nil || !strings.Contains(err.Error(), "box/a") {
			t.Errorf("Start with a's segment gone: %v, want an error naming the blob", err)
		}
	})
}
