package api

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"

	"github.com/syncio/syncio/fakes/blobserver"
)

// flakyStorage is the fake blob server behind a proxy that can fail the
// deletion of receipts as a busy storage would (503 ServerBusy), and that
// reports each receipt stored through it.
type flakyStorage struct {
	failDeletes atomic.Bool
	stored      chan string // blob paths of receipts stored
	connString  string
}

func newFlakyStorage(t *testing.T) *flakyStorage {
	t.Helper()
	fake := blobserver.New()
	if err := fake.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Close() })
	target, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	fs := &flakyStorage{stored: make(chan string, 16)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		receipt := strings.Contains(r.URL.Path, "/receipts/")
		if receipt && r.Method == http.MethodDelete && fs.failDeletes.Load() {
			w.Header().Set("x-ms-error-code", "ServerBusy")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = io.WriteString(w, `<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>injected</Message></Error>`)
			return
		}
		proxy.ServeHTTP(w, r)
		if receipt && r.Method == http.MethodPut {
			fs.stored <- r.URL.Path
		}
	}))
	t.Cleanup(srv.Close)
	fs.connString = blobserver.ConnectionStringFor(srv.URL + "/devstoreaccount1")
	return fs
}

// failingProfileAfter is a profile service that answers 500 once a
// receipt has been stored (stored is closed), so the order's profile step
// fails after its upload did.
func failingProfileAfter(t *testing.T, stored <-chan struct{}) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-stored:
		case <-time.After(10 * time.Second):
		case <-r.Context().Done():
		}
		http.Error(w, "profile down", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestFaultReceiptLeftByAFailedCompensationIsDeleted: an async order whose
// profile step fails after its receipt was stored, while storage fails the
// compensation's delete. The 502 names the step that failed and nothing of
// the delete's failure (it once said "GetUserProfile failed: storage
// answered 503 ServerBusy", storage's answer to the delete attributed to
// the profile step). The receipt it left is deleted in the background once
// storage answers (it once stayed in storage for good).
func TestFaultReceiptLeftByAFailedCompensationIsDeleted(t *testing.T) {
	fs := newFlakyStorage(t)
	fs.failDeletes.Store(true)
	stored := make(chan struct{})
	cfg := testConfig()
	cfg.StorageConnectionString = fs.connString
	cfg.ProfileURL = failingProfileAfter(t, stored)
	s := startServer(t, cfg)

	type result struct {
		r   response
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := postOrder(context.Background(), s, "async", orderBody("ORPHAN-1"))
		done <- result{r, err}
	}()
	var path string
	select {
	case path = <-fs.stored:
		close(stored)
	case <-time.After(10 * time.Second):
		t.Fatal("the order stored no receipt")
	}
	name := path[strings.Index(path, "receipts/"):]
	res := <-done
	if res.err != nil || res.r.status != http.StatusBadGateway || documentedError(t, res.r) != codeUpstreamError {
		t.Fatalf("order: %d %s %v, want 502 %s", res.r.status, res.r.body, res.err, codeUpstreamError)
	}
	msg := res.r.errorBody(t).Error
	if !strings.Contains(msg, "Order/Parallel/GetUserProfile") || strings.Contains(msg, "storage") || strings.Contains(msg, "DeleteReceipt") {
		t.Errorf("502 %q: want the failed step, Order/Parallel/GetUserProfile, and nothing of the compensation's delete", msg)
	}
	if _, err := readBlob(t, s, name); err != nil {
		t.Fatalf("receipt %s gone although its delete failed: %v", name, err)
	}
	if got := metricValue(t, s, "syncio_order_orphan_receipts"); got != 1 {
		t.Errorf("syncio_order_orphan_receipts = %v, want 1", got)
	}

	fs.failDeletes.Store(false) // storage answers again
	for deadline := time.Now().Add(30 * time.Second); ; {
		_, err := readBlob(t, s, name)
		if bloberror.HasCode(err, bloberror.BlobNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("receipt %s left by the failed compensation still in storage (%v)", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitMetric(t, s, "syncio_order_orphan_receipts", 0)
	waitMetric(t, s, "syncio_order_orphan_receipts_deleted_total", 1)
}

// TestOrphansLeftAtStopAreLogged: receipts whose deletion still fails when
// the server stops are named in an error log line, so they can be deleted
// by hand, and the retrying goroutine ends (goleak checks at the end).
func TestOrphansLeftAtStopAreLogged(t *testing.T) {
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	var tries atomic.Int64
	o := newOrphans(func(context.Context, string) error { tries.Add(1); return errors.New("storage down") }, log, nil)
	o.first = time.Millisecond
	o.add("receipts/A/1.json")
	o.add("receipts/B/2.json")
	o.add("receipts/A/1.json") // pending already: once is enough
	for deadline := time.Now().Add(10 * time.Second); tries.Load() < 4; {
		if time.Now().After(deadline) {
			t.Fatalf("%d deletes tried, want retries", tries.Load())
		}
		time.Sleep(time.Millisecond)
	}
	o.stop()
	o.stop() // a second stop does nothing
	var left string
	for _, l := range logs.lines() {
		if strings.Contains(l, "level=ERROR") {
			left += l
		}
	}
	if !strings.Contains(left, "receipts/A/1.json") || !strings.Contains(left, "receipts/B/2.json") {
		t.Errorf("log %q: want an error line naming both receipts", logs.lines())
	}
	o.add("receipts/C/3.json") // after stop: logged, not retried
	if got := strings.Join(logs.lines(), "\n"); !strings.Contains(got, "receipts/C/3.json") {
		t.Errorf("a receipt handed over after stop is not logged: %q", got)
	}
}
