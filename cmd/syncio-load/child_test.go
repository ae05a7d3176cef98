package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/fakes/blobserver"
)

// TestStorageChild: with -storage-child (the default) the blob fake runs in
// a process of its own. An upload through one API child is read back
// through a second API child started later on the same storage: the bytes
// live outside both API processes. The API child runs under the default
// memory limit, and the parent can read the storage child's peak RSS.
func TestStorageChild(t *testing.T) {
	o, err := parseRun([]string{"-storage-latency", "0", "-storage-bandwidth", "0"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if !o.storageChild || o.memLimit != -1 || o.memLimitExplicit {
		t.Fatalf("defaults: storage child %v, API memory limit %d (explicit %v)", o.storageChild, o.memLimit, o.memLimitExplicit)
	}
	var logs bytes.Buffer
	lw := &lockedWriter{w: &logs} // the children's logs, copied in by os/exec
	ctx := context.Background()
	acfg := apiConfig(o, 10*time.Millisecond)
	st, err := startStorageChild(ctx, storageChildConfig(acfg, false), lw)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := st.stop(10 * time.Second); err != nil {
			t.Error(err)
		}
	}()
	if !strings.Contains(st.url, "BlobEndpoint=http://127.0.0.1:") {
		t.Fatalf("the storage child's line is not a loopback connection string")
	}
	if got := childMemoryLimit(o, acfg); got != 0 {
		t.Errorf("the API child's memory limit with the fake inside it: %d, want 0 (none)", got)
	}
	acfg.StorageConnectionString = st.url
	startAPI := func() *childAPI {
		c, err := startChildAPI(ctx, childConfig{API: acfg, MemoryLimit: childMemoryLimit(o, acfg)}, lw)
		if err != nil {
			lw.mu.Lock()
			defer lw.mu.Unlock()
			t.Fatalf("%v\n%s", err, logs.String())
		}
		return c
	}

	first := startAPI()
	if got := metric(t, first.url, "syncio_memory_limit_bytes"); got != api.DefaultMemoryLimit {
		t.Errorf("the API child's memory limit %v, want %d", got, api.DefaultMemoryLimit)
	}
	resp, err := http.Post(first.url+"/api/async/upload", "application/octet-stream", strings.NewReader("kept outside the API"))
	if err != nil {
		t.Fatal(err)
	}
	var up struct{ Name string }
	err = json.NewDecoder(resp.Body).Decode(&up)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusCreated {
		t.Fatalf("upload: %d %v", resp.StatusCode, err)
	}
	if err := first.stop(10 * time.Second); err != nil {
		t.Fatal(err)
	}

	second := startAPI()
	defer func() { _ = second.stop(10 * time.Second) }()
	resp, err = http.Get(second.url + "/api/blobs/" + up.Name)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "kept outside the API" {
		t.Errorf("read back through a second API child: %d %q", resp.StatusCode, body)
	}
	if rss, err := st.peakRSS(); runtime.GOOS == "linux" && (err != nil || rss <= 0) {
		t.Errorf("the storage child's peak RSS: %d, %v", rss, err)
	}
}

// metric reads one unlabelled series of base's /metrics, or -1.
func metric(t *testing.T, base, series string) float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			var v float64
			if _, err := fmt.Sscan(rest, &v); err == nil {
				return v
			}
		}
	}
	return -1
}

// TestChildrenSayWhatIsWrongWithTheirInput: a child given no
// configuration, or one that is not JSON, exits 2 naming itself and why.
func TestChildrenSayWhatIsWrongWithTheirInput(t *testing.T) {
	for _, c := range []struct {
		arg   string
		serve func(io.Reader, io.Writer, io.Writer) int
	}{{serveAPIArg, serveAPI}, {serveBlobArg, serveBlob}} {
		for in, want := range map[string]string{"": "reading the configuration", "not json\n": "decoding the configuration"} {
			var stderr bytes.Buffer
			if code := c.serve(strings.NewReader(in), io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), c.arg+": "+want) {
				t.Errorf("%s with input %q: exit %d, stderr %q; want 2 and %q", c.arg, in, code, stderr.String(), want)
			}
		}
	}
}

// TestBlobChildStopsWhenStdinCloses: the storage child serves until its
// parent closes its stdin (or dies), then exits 0.
func TestBlobChildStopsWhenStdinCloses(t *testing.T) {
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- serveBlob(pr, out, io.Discard) }()
	cfg, err := json.Marshal(blobChildConfig{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pw.Write(append(cfg, '\n')); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), "listening "); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the storage child never said it listens: %q", out.String())
		}
	}
	_ = pw.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after stdin closed, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the storage child kept serving after its stdin closed")
	}
}

// TestStorageChildExpiresStagedBlocks: the storage child is the API's
// embedded store in a process of its own, staged-block expiry included (a
// zero blobserver.Config would keep abandoned blocks for ever).
func TestStorageChildExpiresStagedBlocks(t *testing.T) {
	acfg := api.DefaultConfig()
	if got := storageChildConfig(acfg, false).Storage.StagedBlockExpiry; got != blobserver.DefaultStagedBlockExpiry {
		t.Errorf("storage child's staged-block expiry %v, want %v", got, blobserver.DefaultStagedBlockExpiry)
	}
}
