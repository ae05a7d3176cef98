package after

import (
	"fmt"
	"io"
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
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(w, resp.Body)
}

// maxUpload bounds an upload, which is read into memory before it is sent.
const maxUpload = 4 << 20

// Uploader stores request bodies as blobs.
type Uploader struct {
	Blobs     *azblob.Client // from NewBlobClient
	Container string
}

// Upload uses the shared azblob client.
func (u *Uploader) Upload(w http.ResponseWriter, r *http.Request) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxUpload))
	if err != nil {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	if _, err := u.Blobs.UploadBuffer(r.Context(), u.Container, r.PathValue("name"), data, nil); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
