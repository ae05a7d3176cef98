package blobserver

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
)

// What SIGTERM does to the embedded store (the API stops its HTTP server, then calls
// Close): the server stops serving in the middle of a load, and every blob it acknowledged
// with 201 must still be there, whole, with its MD5, until the store is removed.
func TestStopMidLoadKeepsEveryAcknowledgedBlob(t *testing.T) {
	s := New(WithLatency(DefaultLatency/10), WithDir(t.TempDir()))
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	put := func(url string, body []byte, hdr map[string]string) (int, error) {
		req, err := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if code, err := put(s.URL()+"/box?restype=container", nil, nil); err != nil || code != http.StatusCreated {
		t.Fatalf("create container: %d %v", code, err)
	}

	var (
		mu      sync.Mutex
		acked   = map[string][16]byte{}
		refused atomic.Int64
		stopped = make(chan struct{})
		once    sync.Once
		wg      sync.WaitGroup
	)
	for w := range 32 {
		wg.Go(func() {
			for i := 0; ; i++ {
				body := bytes.Repeat([]byte(fmt.Sprintf("%d-%d;", w, i)), 400)
				name := fmt.Sprintf("w%d-%d", w, i)
				code, err := put(s.URL()+"/box/"+name, body, map[string]string{"x-ms-blob-type": "BlockBlob"})
				if err != nil || code != http.StatusCreated {
					refused.Add(1) // a 503 while shutting down, or the connection refused
					return
				}
				mu.Lock()
				acked[name] = md5.Sum(body)
				n := len(acked)
				mu.Unlock()
				if n == 300 {
					once.Do(func() {
						go func() { // SIGTERM, mid-load
							if err := s.stopServing(); err != nil {
								t.Errorf("stop serving: %v", err)
							}
							close(stopped)
						}()
					})
				}
			}
		})
	}
	wg.Wait()
	<-stopped
	if len(acked) < 300 || refused.Load() != 32 {
		t.Fatalf("%d acknowledged, %d writers stopped by the shutdown", len(acked), refused.Load())
	}
	for name, want := range acked {
		b, release, err := s.store.getBlob("box", name)
		if err != nil {
			t.Fatalf("%s acknowledged but lost: %v", name, err)
		}
		got, err := io.ReadAll(b.c.reader())
		release()
		if err != nil || md5.Sum(got) != want || !bytes.Equal(b.props.contentMD5, want[:]) {
			t.Fatalf("%s acknowledged but changed (read error %v)", name, err)
		}
	}
	dir := s.store.disk.dir
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("Close left the store directory %s (%v)", dir, err)
	}
}
