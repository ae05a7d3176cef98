package before

import (
	"io"
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
)

// Proxy forwards profile lookups to a downstream service.
type Proxy struct {
	ProfileURL string
}

// Profile builds a new transport per request: a new TCP (and TLS)
// connection every time, and an idle connection left behind each time.
func (p *Proxy) Profile(w http.ResponseWriter, r *http.Request) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}, Timeout: 5 * time.Second} // syncio: SIO004
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, p.ProfileURL, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := client.Do(req)
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
	ConnString string
	Container  string
}

// Upload builds an azblob client, with its own pipeline and HTTP
// connections, for every upload.
func (u *Uploader) Upload(w http.ResponseWriter, r *http.Request) {
	client, err := azblob.NewClientFromConnectionString(u.ConnString, nil) // syncio: SIO004
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxUpload))
	if err != nil {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	if _, err := client.UploadBuffer(r.Context(), u.Container, r.PathValue("name"), data, nil); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
