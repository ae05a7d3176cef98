package after

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
)

// NewHTTPClient builds the process's one HTTP client. Call it at start-up;
// it is safe for concurrent use.
func NewHTTPClient() *http.Client {
	t := &http.Transport{
		Proxy:       http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		// The default of 2 idle connections per host makes a busy client
		// close and re-dial most connections; keep about as many as the
		// calls in flight to one downstream host.
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 10 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	// No Client.Timeout: it would also cut off long response bodies; each
	// request is bounded by its context instead.
	return &http.Client{Transport: t}
}

// NewBlobClient builds the process's one azblob client on the shared HTTP
// client, with a retry policy whose total time is bounded.
func NewBlobClient(connString string, hc *http.Client) (*azblob.Client, error) {
	client, err := azblob.NewClientFromConnectionString(connString, &azblob.ClientOptions{
		ClientOptions: azcore.ClientOptions{
			Transport: hc,
			Retry: policy.RetryOptions{
				MaxRetries:    2,
				TryTimeout:    15 * time.Second,
				RetryDelay:    200 * time.Millisecond,
				MaxRetryDelay: 2 * time.Second,
			},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("azblob client: %w", err)
	}
	return client, nil
}

// Proxy forwards profile lookups to a downstream service.
type Proxy struct {
	Client     *http.Client // from NewHTTPClient
	ProfileURL string
}

// Profile reuses the shared client's warm connections.
func (p *Proxy) Profile(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, p.ProfileURL, nil)
	if err != nil {
		slog.ErrorContext(r.Context(), "profile request", "err", err)
		writeError(w, http.StatusInternalServerError, "internal error", "internal")
		return
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		slog.ErrorContext(r.Context(), "profile call", "err", err)
		writeError(w, http.StatusBadGateway, "profile service unavailable", "upstream")
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(w, resp.Body)
}

// An upload is streamed to the blob store in blocks: it holds at most
// uploadConcurrency blocks of uploadBlockSize in memory (4 MiB here),
// whatever its size, so maxUpload caps what a client may store, not what
// the service holds.
const (
	maxUpload         = 256 << 20
	uploadBlockSize   = 1 << 20 // azblob's minimum for UploadStream
	uploadConcurrency = 4
)

// Uploader stores request bodies as blobs.
type Uploader struct {
	Blobs     *azblob.Client // from NewBlobClient
	Container string
	MaxBytes  int64 // the cap on one upload; maxUpload when zero
}

// Upload streams the body to the shared azblob client. Past the cap,
// MaxBytesReader fails the read, UploadStream returns that error, and the
// client gets 413; the blocks staged so far are never committed, and the
// store drops them.
func (u *Uploader) Upload(w http.ResponseWriter, r *http.Request) {
	limit := u.MaxBytes
	if limit <= 0 {
		limit = maxUpload
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	_, err := u.Blobs.UploadStream(r.Context(), u.Container, r.PathValue("name"), body, &azblob.UploadStreamOptions{
		BlockSize:   uploadBlockSize,
		Concurrency: uploadConcurrency,
	})
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeError(w, http.StatusRequestEntityTooLarge, "upload too large", "too_large")
	case err != nil:
		// The error names the storage account's URL: log it, do not send it.
		slog.ErrorContext(r.Context(), "upload", "blob", r.PathValue("name"), "err", err)
		writeError(w, http.StatusBadGateway, "storage unavailable", "upstream")
	default:
		w.WriteHeader(http.StatusCreated)
	}
}

// writeError answers with a JSON error that says what failed and nothing
// more.
func writeError(w http.ResponseWriter, status int, msg, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg, "code": code})
}
