package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// earlyAnswerChild names the storage the child process of
// TestFaultEarlyStorageAnswerNeverCrashes uploads into.
const earlyAnswerChild = "SYNCIO_EARLY_ANSWER_CHILD"

// TestFaultEarlyStorageAnswerNeverCrashes: storage that answers a Put Block
// before it has read the block (the embedded store's 507 when full, a 503
// from a struggling account) must cost the upload, never the process. The
// RoundTripper contract lets net/http's write loop go on reading a request
// body after RoundTrip has returned; a body whose memory the API frees or
// reuses when the SDK call returns (azblob's UploadStream unmaps its block
// buffers) is then read after it is gone, and the API dies with SIGSEGV,
// which no recover catches. The uploads run in a child process so that a
// crash is a failure of this test with the fault's stack, not the end of the
// package's run.
func TestFaultEarlyStorageAnswerNeverCrashes(t *testing.T) {
	if mode := os.Getenv(earlyAnswerChild); mode != "" {
		earlyAnswerUploads(t, mode)
		return
	}
	for _, mode := range []string{"lingering-reader", "full"} {
		t.Run(mode, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestFaultEarlyStorageAnswerNeverCrashes$", "-test.count=1")
			cmd.Env = append(os.Environ(), earlyAnswerChild+"="+mode)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("uploads into storage that answers early (%s): the API process failed: %v\n%s", mode, err, crashExcerpt(out))
			}
			if !strings.Contains(string(out), "PASS") {
				t.Fatalf("the child ran no test:\n%s", out)
			}
		})
	}
}

// crashExcerpt keeps the fatal error and the first goroutine's stack: the
// whole dump of a crashed API is thousands of lines.
func crashExcerpt(out []byte) string {
	s := string(out)
	if i := strings.Index(s, "fatal error"); i >= 0 {
		s = s[i:]
	} else if i := strings.Index(s, "unexpected fault"); i >= 0 {
		s = s[i:]
	}
	if len(s) > 6000 {
		s = s[:6000] + "\n…"
	}
	return s
}

// earlyAnswerUploads is the child: 4 MiB uploads, sync and async, many at
// once, into storage that refuses every Put Block before reading it. Each
// must be answered with a JSON error; none may be acknowledged.
func earlyAnswerUploads(t *testing.T, mode string) {
	cfg := testConfig()
	cfg.Workers = 64
	cfg.Queue = 256
	cfg.MaxInflightUploads = 64
	cfg.MaxUploadBytes = 8 << 20
	switch mode {
	case "full":
		// Smaller than one block: every Put Block is refused at once with 507.
		cfg.StorageMaxBytes = 512 << 10
	case "lingering-reader":
		wrapStorageTransport = func(rt http.RoundTripper) http.RoundTripper { return lingeringReader{rt} }
		// No retry: each try would start a reader of its own, and the
		// point is the reader that outlives the SDK call.
		cfg.StorageRetries = -1
	default:
		t.Fatalf("unknown mode %q", mode)
	}
	s := startServer(t, cfg)
	const uploads = 160
	var (
		wg      sync.WaitGroup
		refused atomic.Int64
		next    atomic.Int64
	)
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > uploads {
					return
				}
				kind := "async"
				if i%2 == 0 {
					kind = "sync"
				}
				r, err := fetch(context.Background(), http.MethodPost, fmt.Sprintf("%s/api/%s/upload?size=%d", s.URL(), kind, 4<<20), nil)
				if err != nil {
					t.Errorf("upload %d: %v", i, err)
					continue
				}
				if r.status == http.StatusCreated {
					t.Errorf("upload %d acknowledged by storage that refused every block: %s", i, r.body)
					continue
				}
				if _, err := checkDocumented(r); err != nil {
					t.Errorf("upload %d: %v", i, err)
					continue
				}
				refused.Add(1)
			}
		}()
	}
	wg.Wait()
	if refused.Load() != uploads {
		t.Fatalf("%d of %d uploads answered with a documented error", refused.Load(), uploads)
	}
}

// lingeringReader answers every Put Block at once with 503 ServerBusy and
// goes on reading the block from another goroutine for a while after
// RoundTrip has returned, as net/http's write loop may (the RoundTripper
// contract allows it; net/http does it when storage answers early and
// hangs up). Everything else goes to the real transport. Against a body
// whose memory is unmapped once the SDK call returns, the late reads fault.
type lingeringReader struct{ next http.RoundTripper }

func (l lingeringReader) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPut || req.URL.Query().Get("comp") != "block" || req.Body == nil {
		return l.next.RoundTrip(req)
	}
	body := req.Body
	go func() {
		defer body.Close()
		buf := make([]byte, 4<<10)
		for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
			if _, err := body.Read(buf); err != nil {
				if s, ok := body.(io.Seeker); ok {
					_, _ = s.Seek(0, io.SeekStart) // read it again until the time is up
					continue
				}
				return
			}
			time.Sleep(100 * time.Microsecond)
		}
	}()
	h := make(http.Header)
	h.Set("x-ms-error-code", "ServerBusy")
	h.Set("Content-Type", "application/xml")
	const msg = `<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>busy</Message></Error>`
	return &http.Response{
		StatusCode: http.StatusServiceUnavailable, Status: "503 Service Unavailable",
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(strings.NewReader(msg)), ContentLength: int64(len(msg)),
		Request: req,
	}, nil
}
