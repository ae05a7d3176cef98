package blobserver_test

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/fakes/blobserver"
)

const base = "/" + blobserver.AccountName

// do sends one request to h and returns the recorded answer.
func do(t *testing.T, h http.Handler, method, target string, body []byte, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	r := httptest.NewRequest(method, target, rd)
	r.Header.Set("Authorization", "SharedKey devstoreaccount1:not-checked")
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func mustStatus(t *testing.T, w *httptest.ResponseRecorder, status int, code string) {
	t.Helper()
	if w.Code != status {
		t.Fatalf("status %d, want %d; body %s", w.Code, status, w.Body.String())
	}
	if got := w.Header().Get("x-ms-error-code"); got != code {
		t.Fatalf("x-ms-error-code %q, want %q", got, code)
	}
}

var blockBlob = map[string]string{"x-ms-blob-type": "BlockBlob"}

func newContainer(t *testing.T, s *blobserver.Server, name string) http.Handler {
	t.Helper()
	h := s.Handler()
	mustStatus(t, do(t, h, "PUT", base+"/"+name+"?restype=container", nil, nil), http.StatusCreated, "")
	return h
}

func TestErrorShape(t *testing.T) {
	h := newContainer(t, newServer(t), "box")
	w := do(t, h, "GET", base+"/box/missing", nil, nil)
	mustStatus(t, w, http.StatusNotFound, "BlobNotFound")
	var doc struct {
		XMLName xml.Name `xml:"Error"`
		Code    string   `xml:"Code"`
		Message string   `xml:"Message"`
	}
	if err := xml.Unmarshal(w.Body.Bytes(), &doc); err != nil || doc.Code != "BlobNotFound" || doc.Message == "" {
		t.Fatalf("error body %q: %+v, %v", w.Body.String(), doc, err)
	}
	for _, name := range []string{"Date", "x-ms-request-id", "x-ms-version"} {
		if w.Header().Get(name) == "" {
			t.Errorf("error response lacks %s", name)
		}
	}
	if _, err := http.ParseTime(w.Header().Get("Date")); err != nil {
		t.Errorf("Date %q is not RFC 1123: %v", w.Header().Get("Date"), err)
	}

	head := do(t, h, "HEAD", base+"/box/missing", nil, nil)
	mustStatus(t, head, http.StatusNotFound, "BlobNotFound")
	if head.Body.Len() != 0 {
		t.Errorf("HEAD error has a body: %q", head.Body.String())
	}
	mustStatus(t, do(t, h, "GET", base+"/nope/blob", nil, nil), http.StatusNotFound, "ContainerNotFound")
	mustStatus(t, do(t, h, "PUT", base+"/box?restype=container", nil, nil), http.StatusConflict, "ContainerAlreadyExists")
	mustStatus(t, do(t, h, "PUT", base+"/Bad_Name?restype=container", nil, nil), http.StatusBadRequest, "InvalidResourceName")
	mustStatus(t, do(t, h, "GET", base+"?comp=list", nil, nil), http.StatusNotImplemented, "NotImplemented")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", []byte("x"), nil), http.StatusBadRequest, "MissingRequiredHeader")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", []byte("x"), map[string]string{"x-ms-blob-type": "PageBlob"}), http.StatusNotImplemented, "NotImplemented")
	mustStatus(t, do(t, h, "POST", base+"/box/b", nil, nil), http.StatusMethodNotAllowed, "UnsupportedHttpVerb")
	mustStatus(t, do(t, h, "GET", "/otheraccount/box/b", nil, nil), http.StatusNotFound, "ResourceNotFound")
}

func TestPutBlobHeadersAndMD5(t *testing.T) {
	h := newContainer(t, newServer(t), "box")
	data := []byte("hello, blob")
	sum := md5.Sum(data)
	b64 := base64.StdEncoding.EncodeToString(sum[:])

	bad := map[string]string{"x-ms-blob-type": "BlockBlob", "Content-MD5": base64.StdEncoding.EncodeToString(make([]byte, 16))}
	mustStatus(t, do(t, h, "PUT", base+"/box/b", data, bad), http.StatusBadRequest, "Md5Mismatch")
	garbled := map[string]string{"x-ms-blob-type": "BlockBlob", "Content-MD5": "not base64"}
	mustStatus(t, do(t, h, "PUT", base+"/box/b", data, garbled), http.StatusBadRequest, "InvalidHeaderValue")

	good := map[string]string{"x-ms-blob-type": "BlockBlob", "Content-MD5": b64, "x-ms-blob-content-type": "text/plain"}
	w := do(t, h, "PUT", base+"/box/b", data, good)
	mustStatus(t, w, http.StatusCreated, "")
	if w.Header().Get("Content-MD5") != b64 || w.Header().Get("ETag") == "" {
		t.Fatalf("put headers: %v", w.Header())
	}
	if _, err := http.ParseTime(w.Header().Get("Last-Modified")); err != nil {
		t.Fatalf("Last-Modified: %v", err)
	}

	g := do(t, h, "GET", base+"/box/b", nil, nil)
	mustStatus(t, g, http.StatusOK, "")
	if g.Body.String() != string(data) || g.Header().Get("Content-MD5") != b64 ||
		g.Header().Get("Content-Length") != fmt.Sprint(len(data)) || g.Header().Get("Content-Type") != "text/plain" ||
		g.Header().Get("ETag") != w.Header().Get("ETag") {
		t.Fatalf("get: %q %v", g.Body.String(), g.Header())
	}
	r := do(t, h, "GET", base+"/box/b", nil, map[string]string{"x-ms-range": "bytes=7-", "Range": "bytes=0-0"})
	mustStatus(t, r, http.StatusPartialContent, "")
	if r.Body.String() != "blob" || r.Header().Get("Content-Range") != "bytes 7-10/11" {
		t.Fatalf("x-ms-range must win over Range: %q %v", r.Body.String(), r.Header())
	}
	mustStatus(t, do(t, h, "GET", base+"/box/b", nil, map[string]string{"Range": "bytes=11-"}), http.StatusRequestedRangeNotSatisfiable, "InvalidRange")
	mustStatus(t, do(t, h, "GET", base+"/box/b", nil, map[string]string{"If-Match": `"stale"`}), http.StatusPreconditionFailed, "ConditionNotMet")
	mustStatus(t, do(t, h, "GET", base+"/box/b", nil, map[string]string{"If-None-Match": w.Header().Get("ETag")}), http.StatusNotModified, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", data, map[string]string{"x-ms-blob-type": "BlockBlob", "If-None-Match": "*"}), http.StatusConflict, "BlobAlreadyExists")
}

func TestBlocks(t *testing.T) {
	s := newServer(t)
	h := newContainer(t, s, "box")
	id := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=block&blockid=%25%25", []byte("x"), nil), http.StatusBadRequest, "InvalidQueryParameterValue")
	mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=block", []byte("x"), nil), http.StatusBadRequest, "InvalidQueryParameterValue")
	for _, blk := range []struct{ id, data string }{{"one", "111"}, {"two", "22"}, {"unused", "zzzz"}} {
		mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=block&blockid="+id(blk.id), []byte(blk.data), nil), http.StatusCreated, "")
	}
	if got := s.UsedBytes(); got != 9 {
		t.Fatalf("staged bytes = %d, want 9", got)
	}
	list := "<BlockList><Latest>" + id("two") + "</Latest><Uncommitted>" + id("one") + "</Uncommitted></BlockList>"
	mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=blocklist", []byte(list), nil), http.StatusCreated, "")
	if g := do(t, h, "GET", base+"/box/b", nil, nil); g.Body.String() != "22111" {
		t.Fatalf("committed %q, want 22111", g.Body.String())
	}
	if got := s.UsedBytes(); got != 5 {
		t.Fatalf("after commit %d bytes held, want 5 (unused blocks discarded)", got)
	}
	// Re-commit from the committed list, reordered, without staging anything.
	list = "<BlockList><Committed>" + id("one") + "</Committed><Latest>" + id("two") + "</Latest></BlockList>"
	mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=blocklist", []byte(list), nil), http.StatusCreated, "")
	if g := do(t, h, "GET", base+"/box/b", nil, nil); g.Body.String() != "11122" {
		t.Fatalf("recommitted %q, want 11122", g.Body.String())
	}
	list = "<BlockList><Uncommitted>" + id("one") + "</Uncommitted></BlockList>"
	mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=blocklist", []byte(list), nil), http.StatusBadRequest, "InvalidBlockList")
	mustStatus(t, do(t, h, "PUT", base+"/box/b?comp=blocklist", []byte("<nope"), nil), http.StatusBadRequest, "InvalidXmlDocument")
}

func TestMemoryCap(t *testing.T) {
	s := newServer(t, blobserver.WithMaxBytes(100))
	h := newContainer(t, s, "box")
	mustStatus(t, do(t, h, "PUT", base+"/box/a", make([]byte, 80), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", make([]byte, 30), blockBlob), http.StatusInsufficientStorage, "FakeStorageFull")
	mustStatus(t, do(t, h, "PUT", base+"/box/c", make([]byte, 101), blockBlob), http.StatusRequestEntityTooLarge, "RequestBodyTooLarge")
	// Overwriting releases the old content first, so shrinking always fits.
	mustStatus(t, do(t, h, "PUT", base+"/box/a", make([]byte, 50), blockBlob), http.StatusCreated, "")
	mustStatus(t, do(t, h, "PUT", base+"/box/b", make([]byte, 30), blockBlob), http.StatusCreated, "")
	if got := s.UsedBytes(); got != 80 {
		t.Fatalf("used %d, want 80", got)
	}
	mustStatus(t, do(t, h, "DELETE", base+"/box/a", nil, nil), http.StatusAccepted, "")
	mustStatus(t, do(t, h, "DELETE", base+"/box?restype=container", nil, nil), http.StatusAccepted, "")
	if got := s.UsedBytes(); got != 0 {
		t.Fatalf("after deleting everything %d bytes are still held", got)
	}
}

func TestFailureInjection(t *testing.T) {
	h := newServer(t, blobserver.WithFailureRate(1)).Handler()
	mustStatus(t, do(t, h, "PUT", base+"/box?restype=container", nil, nil), http.StatusServiceUnavailable, "ServerBusy")
	h = newServer(t, blobserver.WithFailureRate(1), blobserver.WithFailureStatus(500)).Handler()
	mustStatus(t, do(t, h, "PUT", base+"/box?restype=container", nil, nil), http.StatusInternalServerError, "InternalError")

	h = newServer(t, blobserver.WithFailureRate(0.25), blobserver.WithSeed(9)).Handler()
	failed := 0
	for range 800 {
		if do(t, h, "GET", base+"/box?restype=container", nil, nil).Code == http.StatusServiceUnavailable {
			failed++
		}
	}
	if failed < 140 || failed > 260 { // 200 ± ~5σ
		t.Fatalf("%d of 800 requests failed at rate 0.25", failed)
	}
}

func TestLatencyEndsWithTheClient(t *testing.T) {
	h := newServer(t, blobserver.WithLatency(time.Hour)).Handler()
	ctx, cancel := context.WithCancel(context.Background())
	r := httptest.NewRequest("GET", base+"/box?restype=container", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() { defer close(done); h.ServeHTTP(w, r) }()
	cancel()
	<-done // would hang for an hour if the wait ignored the client
}

func TestCloseCutsLatencyShort(t *testing.T) {
	s := newServer(t, blobserver.WithLatency(time.Hour))
	r := httptest.NewRequest("GET", base+"/box?restype=container", nil)
	w := httptest.NewRecorder()
	done := make(chan struct{})
	go func() { defer close(done); s.Handler().ServeHTTP(w, r) }()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	<-done // would hang for an hour if Close did not end injected waits
	mustStatus(t, w, http.StatusServiceUnavailable, "ServerBusy")
}

func TestStartServesAndCloses(t *testing.T) {
	s := newServer(t)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if err := s.Start("127.0.0.1:0"); err == nil {
		t.Error("second Start succeeded")
	}
	if !strings.HasSuffix(s.URL(), "/"+blobserver.AccountName) || !strings.Contains(s.ConnectionString(), "BlobEndpoint="+s.URL()+";") {
		t.Fatalf("URL %q, connection string %q", s.URL(), s.ConnectionString())
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	req, _ := http.NewRequest("PUT", s.URL()+"/box?restype=container", nil)
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create over TCP: %d", resp.StatusCode)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := hc.Get(s.URL() + "/box?restype=container"); err == nil {
		t.Fatal("server still answers after Close")
	}
}

// A client transport may hold a connection it dialled and never used. net/http treats it
// as busy for its first 5-6 s, so Close must wait longer than that rather than fail on a
// server with no request in flight.
func TestCloseWithAnUnusedConnection(t *testing.T) {
	t.Parallel() // Close waits out net/http's 5-6 s for the unused connection
	s := newServer(t)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := s.Close(); err != nil {
		t.Fatalf("Close with an unused connection open: %v", err)
	}
}

func TestCloseWithoutStart(t *testing.T) {
	s := newServer(t)
	if s.URL() != "" || s.ConnectionString() != "" {
		t.Fatal("URL before Start")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	s := newServer(t)
	h := newContainer(t, s, "box")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Go(func() {
			for j := range 20 {
				name := fmt.Sprintf("%s/box/b%d", base, i%4) // four blobs, overwritten concurrently
				body := bytes.Repeat([]byte{byte(i)}, 100+j)
				if w := do(t, h, "PUT", name, body, blockBlob); w.Code != http.StatusCreated {
					errs <- fmt.Errorf("put %s: %d", name, w.Code)
					return
				}
				blk := base64.StdEncoding.EncodeToString([]byte(fmt.Sprintf("w%02d", i)))
				if w := do(t, h, "PUT", name+"?comp=block&blockid="+blk, body, nil); w.Code != http.StatusCreated {
					errs <- fmt.Errorf("block %s: %d", name, w.Code)
					return
				}
				if w := do(t, h, "GET", name, nil, nil); w.Code != http.StatusOK {
					errs <- fmt.Errorf("get %s: %d", name, w.Code)
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
	// Every blob holds one writer's whole body: writes are atomic, never interleaved.
	var total int64
	for i := range 4 {
		w := do(t, h, "GET", fmt.Sprintf("%s/box/b%d", base, i), nil, nil)
		b := w.Body.Bytes()
		if len(b) == 0 || !bytes.Equal(b, bytes.Repeat(b[:1], len(b))) {
			t.Fatalf("blob b%d is torn", i)
		}
		total += int64(len(b))
	}
	if s.UsedBytes() < total {
		t.Fatalf("accounting %d < committed %d", s.UsedBytes(), total)
	}
}

func TestConfigFlags(t *testing.T) {
	c := blobserver.DefaultConfig()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c.RegisterFlags(fs, "storage-")
	if err := fs.Parse([]string{"-storage-failure-rate=1", "-storage-max-bytes=10", "-storage-latency=0", "-storage-bandwidth=0", "-storage-jitter=1ms", "-storage-staged-block-expiry=90s"}); err != nil {
		t.Fatal(err)
	}
	if c != (blobserver.Config{FailureRate: 1, MaxBytes: 10, MaxBlobs: blobserver.DefaultMaxBlobs, Jitter: time.Millisecond, StagedBlockExpiry: 90 * time.Second}) {
		t.Fatalf("config = %+v", c)
	}
	h := newServer(t, c.Options()...).Handler()
	mustStatus(t, do(t, h, "PUT", base+"/box?restype=container", nil, nil), http.StatusServiceUnavailable, "ServerBusy")
}

// newServer is blobserver.New, closed (its directory removed) when the test ends.
func newServer(t testing.TB, opts ...blobserver.Option) *blobserver.Server {
	t.Helper()
	s := blobserver.New(opts...)
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}
