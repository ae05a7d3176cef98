package after

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// uploadBounds: the server's ReadTimeout is 100 ms; an upload may be
// silent for 2 s at most.
var uploadBounds = Bounds{
	ReadHeader: time.Second, Handler: time.Second, Write: time.Minute, Read: 100 * time.Millisecond,
	Idle: time.Second, Stream: time.Minute, WriteWait: time.Second, ReadWait: 2 * time.Second,
}

const chunks = 12

func serveUploads(t *testing.T, uploads http.Handler, b Bounds) *httptest.Server {
	t.Helper()
	srv := NewServer("", http.NotFoundHandler(), http.NotFoundHandler(), uploads, b)
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

func discard(_ context.Context, body io.Reader) (int64, error) { return io.Copy(io.Discard, body) }

// send posts a body written by write through a pipe, and returns the
// status and the JSON code or byte count of the answer.
func send(t *testing.T, ts *httptest.Server, write func(*io.PipeWriter)) (int, map[string]any) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	go write(pw)
	resp, err := ts.Client().Post(ts.URL+"/uploads", "application/octet-stream", pr)
	if err != nil {
		return 0, map[string]any{"error": err.Error()}
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// steady writes a chunk every 100 ms: the upload lasts 1.2 s or more,
// past the server's ReadTimeout, but is never silent for long.
func steady(pw *io.PipeWriter) {
	for range chunks {
		if _, err := pw.Write([]byte(strings.Repeat("x", 1000))); err != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	pw.Close()
}

// TestUploadOutlivesReadTimeout: a steady upload longer than the
// server's ReadTimeout is taken whole by Upload, which moves the read
// deadline per read; the same upload read plainly behind the same server
// fails when ReadTimeout passes.
func TestUploadOutlivesReadTimeout(t *testing.T) {
	u := &Upload{ReadWait: uploadBounds.ReadWait, MaxBytes: 1 << 20, Store: discard, Log: slog.New(slog.DiscardHandler)}
	status, body := send(t, serveUploads(t, u, uploadBounds), steady)
	if status != http.StatusOK || body["bytes"] != float64(chunks*1000) {
		t.Errorf("Upload: %d %v, want 200 and %d bytes", status, body, chunks*1000)
	}

	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			answer(w, http.StatusBadRequest, map[string]any{"error": "body cut", "code": "cut"})
			return
		}
		answer(w, http.StatusOK, map[string]any{})
	})
	status, body = send(t, serveUploads(t, plain, uploadBounds), steady)
	if status == http.StatusOK {
		t.Errorf("plain read behind ReadTimeout: %d %v, want the body cut", status, body)
	}
	t.Logf("plain read behind a 100 ms ReadTimeout: %d %v", status, body)
}

// TestUploadSilentClientDropped: a client that sends a chunk and then
// nothing is answered 408 once it has been silent for ReadWait.
func TestUploadSilentClientDropped(t *testing.T) {
	b := uploadBounds
	b.Read = time.Minute // only ReadWait can end it
	b.ReadWait = 50 * time.Millisecond
	u := &Upload{ReadWait: b.ReadWait, MaxBytes: 1 << 20, Store: discard, Log: slog.New(slog.DiscardHandler)}
	stall := func(pw *io.PipeWriter) { _, _ = pw.Write([]byte("first chunk")) } // then nothing, until the test ends
	if status, body := send(t, serveUploads(t, u, b), stall); status != http.StatusRequestTimeout || body["code"] != "body_timeout" {
		t.Errorf("silent client: %d %v, want 408 body_timeout", status, body)
	}
}
