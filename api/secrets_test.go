package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/syncio/syncio/fakes/blobserver"
)

// lockedBuffer collects log output from many goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSpace(b.buf.String()), "\n")
}

// faultyStorage is a proxy in front of the fake blob server that can pass
// requests, answer them with a status of its own (403, 507), hold them
// unanswered (storage hung), or drop the connection (storage down).
type faultyStorage struct {
	mode atomic.Value // "pass", "down" or a status code as text
	srv  *httptest.Server
}

// proxiedFake starts an embedded blob server, stopped when the test ends,
// and a reverse proxy to it for a test's storage front end to pass
// requests on to.
func proxiedFake(t *testing.T) (*blobserver.Server, *httputil.ReverseProxy) {
	t.Helper()
	fake := blobserver.New()
	if err := fake.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fake.Close() })
	u, err := url.Parse(fake.URL())
	if err != nil {
		t.Fatal(err)
	}
	return fake, httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
}

// serveBehind starts the API, for uploads of up to 8 MiB without retries,
// on storage reached through front (a test's handler in front of
// proxiedFake's proxy).
func serveBehind(t *testing.T, front http.Handler) *Server {
	t.Helper()
	srv := httptest.NewServer(front)
	t.Cleanup(srv.Close)
	cfg := testConfig()
	cfg.StorageConnectionString = blobserver.ConnectionStringFor(srv.URL + "/" + blobserver.AccountName)
	cfg.StorageRetries = -1
	cfg.MaxUploadBytes = 8 << 20
	return startServer(t, cfg)
}

func newFaultyStorage(t *testing.T) *faultyStorage {
	t.Helper()
	_, proxy := proxiedFake(t)
	f := &faultyStorage{}
	f.mode.Store("pass")
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch m := f.mode.Load().(string); m {
		case "pass":
			proxy.ServeHTTP(w, r)
		case "hang": // takes the request and never answers it
			// Reading the body first lets the server see the client go:
			// net/http watches the connection only once the body is read.
			_, _ = io.Copy(io.Discard, r.Body)
			<-r.Context().Done()
		case "down":
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		case "403":
			w.Header().Set("x-ms-error-code", "AuthenticationFailed")
			w.WriteHeader(http.StatusForbidden)
			// Azure echoes request details in its error bodies.
			_, _ = w.Write([]byte("<?xml version=\"1.0\"?><Error><Code>AuthenticationFailed</Code><Message>Signature did not match. " + r.URL.String() + "</Message></Error>"))
		case "507":
			w.Header().Set("x-ms-error-code", "InsufficientStorage")
			w.WriteHeader(http.StatusInsufficientStorage)
			_, _ = w.Write([]byte("<?xml version=\"1.0\"?><Error><Code>InsufficientStorage</Code><Message>full at " + r.URL.String() + "</Message></Error>"))
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// TestNoSecretInAnyResponseOrLog drives every error path of every route,
// and /readyz, with a SAS connection string (and then a shared-key one)
// while storage refuses, fails or is down. No response body may carry the
// secret, the storage endpoint or the account path; no log line may carry
// the secret, and the log must show it was there, redacted.
func TestNoSecretInAnyResponseOrLog(t *testing.T) {
	const sig = "SyncioTestSecretSig0123456789abcdefABCDEF"
	const key = "U3luY2lvVGVzdEFjY291bnRLZXlTZWNyZXQwMTIzNDU2Nzg5"
	for _, cred := range []string{"sas", "sharedkey"} {
		t.Run(cred, func(t *testing.T) {
			st := newFaultyStorage(t)
			endpoint := st.srv.URL + "/" + blobserver.AccountName
			cs := "BlobEndpoint=" + endpoint + ";SharedAccessSignature=sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2099-01-01T00:00:00Z&sig=" + sig + "%3D"
			secret := sig
			if cred == "sharedkey" {
				cs = "DefaultEndpointsProtocol=http;AccountName=" + blobserver.AccountName + ";AccountKey=" + key + ";BlobEndpoint=" + endpoint + ";"
				secret = key
			}
			logs := &lockedBuffer{}
			cfg := testConfig()
			cfg.StorageConnectionString = cs
			cfg.StorageRetries = -1
			s, err := Start(context.Background(), cfg, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
			storageHost := strings.TrimPrefix(st.srv.URL, "http://")
			_, storagePort, _ := net.SplitHostPort(storageHost)

			requests := []struct{ method, path, body string }{
				{"GET", "/readyz", ""},
				{"POST", "/api/sync/upload?size=64", ""},
				{"POST", "/api/async/upload?size=64", ""},
				{"POST", "/api/async/upload?size=64&client=per-request", ""},
				{"POST", "/api/async/upload", "some bytes"},
				{"POST", "/api/sync/order", orderBody("SEC-sync")},
				{"POST", "/api/async/order", orderBody("SEC-async")},
				{"GET", "/api/blobs/upload-0123", ""},
				{"GET", "/api/blobs/receipts/SEC-sync/0123456789abcdef.json", ""},
				{"POST", "/api/async/upload?size=x", ""},
				{"POST", "/api/async/upload?client=bad", ""},
				{"POST", "/api/async/order", `{"id":`},
				{"GET", "/api/blobs/..%2Fetc", ""},
				{"GET", "/nope", ""},
			}
			errorsSeen := 0
			for _, mode := range []string{"403", "507", "down", "pass"} {
				st.mode.Store(mode)
				for i, rq := range requests {
					var body *strings.Reader
					if rq.body != "" {
						// A new order ID per mode and request, so each runs.
						b := strings.ReplaceAll(rq.body, `"SEC-`, `"SEC-`+mode+"-"+string(rune('a'+i))+"-")
						body = strings.NewReader(b)
					} else {
						body = strings.NewReader("")
					}
					r := do(t, context.Background(), rq.method, s.URL()+rq.path, body)
					for _, bad := range []string{secret, "sig=", "AccountKey", storageHost, ":" + storagePort, blobserver.AccountName, "/tmp/"} {
						if strings.Contains(string(r.body), bad) {
							t.Errorf("storage %s: %s %s: %d body %s contains %q", mode, rq.method, rq.path, r.status, r.body, bad)
						}
					}
					if r.status >= 400 {
						errorsSeen++
						eb := r.errorBody(t)
						if eb.RequestID == "" || eb.RequestID != r.header.Get("X-Request-ID") {
							t.Errorf("%s %s: request ID %q in body, %q in header", rq.method, rq.path, eb.RequestID, r.header.Get("X-Request-ID"))
						}
					}
				}
			}
			if errorsSeen < 3*len(requests) {
				t.Errorf("only %d error responses: the faults did not reach the routes", errorsSeen)
			}
			redacted := false
			for _, line := range logs.lines() {
				if strings.Contains(line, secret) {
					t.Errorf("log line carries the secret: %s", line)
				}
				var rec map[string]any
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Errorf("log line is not JSON: %s", line)
				}
				if strings.Contains(line, "sig=REDACTED") || strings.Contains(line, "AccountKey=REDACTED") {
					redacted = true
				}
			}
			if cred == "sas" && !redacted {
				t.Error("no log line shows a redacted signature: the errors with storage URLs were not logged")
			}
		})
	}
}
