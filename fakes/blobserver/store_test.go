package blobserver_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"

	"github.com/syncio/syncio/fakes/blobserver"
)

// storeDirs lists the store directories under parent.
func storeDirs(t *testing.T, parent string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(parent, "syncio-blobs-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCapReachedAnswers507AndKeepsEveryStoredBlob(t *testing.T) {
	s := newServer(t, blobserver.WithMaxBytes(10<<10), blobserver.WithDir(t.TempDir()))
	h := newContainer(t, s, "box")
	sums := map[string][16]byte{}
	var full *httptest.ResponseRecorder
	for i := range 10 {
		body := bytes.Repeat([]byte{byte(i)}, 3000)
		w := do(t, h, "PUT", fmt.Sprintf("%s/box/b%d", base, i), body, blockBlob)
		if w.Code == http.StatusInsufficientStorage {
			full = w
			break
		}
		mustStatus(t, w, http.StatusCreated, "")
		sums[fmt.Sprintf("b%d", i)] = md5.Sum(body)
	}
	if full == nil || len(sums) != 3 {
		t.Fatalf("stored %d blobs of 3000 bytes under a 10 KiB cap before a 507 (%v); want 3", len(sums), full != nil)
	}
	mustStatus(t, full, http.StatusInsufficientStorage, "FakeStorageFull")
	if !strings.Contains(full.Body.String(), "cap") {
		t.Errorf("507 body does not say why: %s", full.Body.String())
	}
	for name, want := range sums {
		g := do(t, h, "GET", base+"/box/"+name, nil, nil)
		if g.Code != http.StatusOK || md5.Sum(g.Body.Bytes()) != want {
			t.Fatalf("%s after the cap was reached: %d, md5 mismatch %v", name, g.Code, md5.Sum(g.Body.Bytes()) != want)
		}
	}
	if s.UsedBytes() != 9000 {
		t.Fatalf("used %d bytes, want 9000 (a refused write holds nothing)", s.UsedBytes())
	}
}

func TestMaxBlobs(t *testing.T) {
	s := newServer(t, blobserver.WithMaxBlobs(2))
	h := newContainer(t, s, "box")
	mustStatus(t, do(t, h, "PUT", base+"/box/a", []byte("a"), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", []byte("b"), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/c", []byte("c"), blockBlob), http.StatusInsufficientStorage, "FakeStorageFull")
	// Overwriting an existing blob adds none.
	mustStatus(t, do(t, h, "PUT", base+"/box/a", []byte("aa"), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "DELETE", base+"/box/b", nil, nil), http.StatusAccepted, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/c", []byte("c"), blockBlob), http.StatusCreated, "")
}

// Overwriting one blob again and again must not grow the directory without bound: a
// segment whose bytes are all overwritten is removed.
func TestOverwritesReclaimDisk(t *testing.T) {
	s := newServer(t, blobserver.WithDir(t.TempDir()))
	h := newContainer(t, s, "box")
	body := make([]byte, 1<<20)
	for i := range 100 { // 100 MiB written in total
		body[0] = byte(i)
		mustStatus(t, do(t, h, "PUT", base+"/box/receipt", body, blockBlob), http.StatusCreated, "")
	}
	if d := s.DiskBytes(); d > 40<<20 {
		t.Fatalf("directory holds %d bytes for one live 1 MiB blob", d)
	}
	if g := do(t, h, "GET", base+"/box/receipt", nil, nil); g.Body.Len() != 1<<20 || g.Body.Bytes()[0] != 99 {
		t.Fatalf("latest receipt lost: %d bytes", g.Body.Len())
	}
}

// A restart leaves nothing behind: Close removes the directory, and a new store removes
// the directory of a process that died without closing, but not one of a live process.
func TestRestartRemovesDeadProcessesDirectories(t *testing.T) {
	parent := t.TempDir()
	s := newServer(t, blobserver.WithDir(parent))
	h := newContainer(t, s, "box")
	mustStatus(t, do(t, h, "PUT", base+"/box/a", []byte("a"), blockBlob), http.StatusCreated, "")
	if got := storeDirs(t, parent); len(got) != 1 {
		t.Fatalf("store directories after a write: %v", got)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := storeDirs(t, parent); len(got) != 0 {
		t.Fatalf("Close left %v", got)
	}

	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a short-lived process: %v", err)
	}
	dead := filepath.Join(parent, "syncio-blobs-"+strconv.Itoa(cmd.Process.Pid)+"-1")
	alive := filepath.Join(parent, "syncio-blobs-"+strconv.Itoa(os.Getppid())+"-1")
	for _, d := range []string{dead, alive} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "seg-1"), []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s2 := newServer(t, blobserver.WithDir(parent))
	h2 := newContainer(t, s2, "box")
	mustStatus(t, do(t, h2, "GET", base+"/box/a", nil, nil), http.StatusNotFound, "BlobNotFound") // a new store starts empty
	mustStatus(t, do(t, h2, "PUT", base+"/box/a", []byte("a"), blockBlob), http.StatusCreated, "")
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead process's directory is still there (%v)", err)
	}
	if _, err := os.Stat(alive); err != nil {
		t.Errorf("the live process's directory was removed: %v", err)
	}
}

// Many SDK writers and readers at once: every blob acknowledged is read back whole with
// its MD5 while others are being written, including one blob overwritten all along.
func TestConcurrentReadersAndWriters(t *testing.T) {
	s := newServer(t, blobserver.WithDir(t.TempDir()))
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	client, err := azblob.NewClientFromConnectionString(s.ConnectionString(),
		&azblob.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: &http.Client{Transport: tr}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := client.CreateContainer(ctx, "box", nil); err != nil {
		t.Fatal(err)
	}
	type acked struct {
		name string
		sum  [16]byte
	}
	var (
		mu    sync.Mutex
		done  []acked
		wg    sync.WaitGroup
		errs  = make(chan error, 100)
		fatal = func(err error) {
			select {
			case errs <- err:
			default:
			}
		}
	)
	for w := range 16 {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(w), 7))
			for i := range 40 {
				body := make([]byte, 1+rnd.IntN(64<<10))
				for j := range body {
					body[j] = byte(rnd.Uint32())
				}
				name := fmt.Sprintf("w%d-%d", w, i)
				if i%5 == 0 {
					name = "shared" // overwritten by everyone
				}
				if _, err := client.UploadBuffer(ctx, "box", name, body, nil); err != nil {
					fatal(fmt.Errorf("upload %s: %w", name, err))
					return
				}
				if name != "shared" {
					mu.Lock()
					done = append(done, acked{name, md5.Sum(body)})
					mu.Unlock()
				}
			}
		})
	}
	for r := range 8 {
		wg.Go(func() {
			rnd := rand.New(rand.NewPCG(uint64(r), 9))
			for range 60 {
				mu.Lock()
				var a acked
				if len(done) > 0 {
					a = done[rnd.IntN(len(done))]
				}
				mu.Unlock()
				name := a.name
				if name == "" || rnd.IntN(4) == 0 {
					name = "shared"
				}
				resp, err := client.DownloadStream(ctx, "box", name, nil)
				if bloberror.HasCode(err, bloberror.BlobNotFound) && name == "shared" {
					continue // not written yet
				}
				if err != nil {
					fatal(fmt.Errorf("download %s: %w", name, err))
					return
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil {
					fatal(fmt.Errorf("read %s: %w", name, err))
					return
				}
				sum := md5.Sum(got)
				if name != "shared" && sum != a.sum {
					fatal(fmt.Errorf("%s read back with another MD5", name))
					return
				}
				if resp.ContentMD5 != nil && !bytes.Equal(resp.ContentMD5, sum[:]) {
					fatal(fmt.Errorf("%s: stored Content-MD5 does not match its bytes (torn read)", name))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, a := range done {
		resp, err := client.DownloadStream(ctx, "box", a.name, nil)
		if err != nil {
			t.Fatalf("download %s after the load: %v", a.name, err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if md5.Sum(got) != a.sum {
			t.Fatalf("%s changed", a.name)
		}
	}
	if len(done) != 16*40*4/5 {
		t.Fatalf("%d blobs acknowledged, want %d", len(done), 16*40*4/5)
	}
}
