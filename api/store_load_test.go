package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestEmbeddedStoreKeepsEveryUploadUnderLoad: thousands of concurrent users
// upload into the embedded store (on its storage model, bytes on disk), and
// every upload acknowledged with 201 reads back with the same MD5. 4000
// users as in the load lab; 1200 under the race detector, whose goroutine
// limit 4000 users and their server-side connections would exceed.
func TestEmbeddedStoreKeepsEveryUploadUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of concurrent uploads")
	}
	users := 4000
	if raceEnabled {
		users = 1200
	}
	cfg := testConfig()
	cfg.Workers, cfg.Queue = 100, 3000
	cfg.StorageLatency = 20 * time.Millisecond
	cfg.StorageBandwidth = 0 // the default 60 MiB/s
	// Generous: on a shared 2-core machine thousands of uploads queue for
	// CPU, and a timed-out try is not what this test is about.
	cfg.UpstreamTimeout, cfg.StorageTryTimeout = 2*time.Minute, time.Minute
	s := startServer(t, cfg)

	tr := &http.Transport{MaxIdleConnsPerHost: users}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	var (
		mu    sync.Mutex
		acks  []uploadResult
		other = map[int]int{}
		wg    sync.WaitGroup
	)
	for u := range users {
		wg.Go(func() {
			for i := range 2 {
				body := bytes.Repeat([]byte(fmt.Sprintf("user %d upload %d;", u, i)), 40)
				resp, err := hc.Post(s.URL()+"/api/async/upload", "application/octet-stream", bytes.NewReader(body))
				if err != nil {
					mu.Lock()
					other[-1]++
					mu.Unlock()
					return
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				mu.Lock()
				if resp.StatusCode == http.StatusCreated {
					var res uploadResult
					if json.Unmarshal(b, &res) == nil && res.MD5 == md5hex(body) {
						acks = append(acks, res)
					} else {
						other[0]++ // a 201 that does not describe the body sent
					}
				} else {
					other[resp.StatusCode]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(acks) != 2*users || len(other) != 0 {
		t.Fatalf("%d of %d uploads acknowledged; others by status (-1 = transport error, 0 = bad 201): %v", len(acks), 2*users, other)
	}
	// Read every one back, 64 at a time.
	sem := make(chan struct{}, 64)
	errs := make(chan error, 1)
	for _, a := range acks {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			r, err := fetch(context.Background(), http.MethodGet, s.URL()+"/api/blobs/"+a.Name, nil)
			if err == nil && (r.status != http.StatusOK || md5hex(r.body) != a.MD5) {
				err = fmt.Errorf("blob %s: %d, md5 %s, acknowledged %s", a.Name, r.status, md5hex(r.body), a.MD5)
			}
			if err != nil {
				select {
				case errs <- err:
				default:
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
}
