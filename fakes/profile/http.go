package profile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Path is where Handler serves the profile.
const Path = "/profile"

// errorBody is the project's JSON error shape.
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

const codeInjected = "injected"

// Handler serves GET /profile as JSON. It uses the async call, so a slow remote fake
// parks nothing but the connection's own goroutine. Injected faults answer 500 with code
// "injected", which Client turns back into ErrInjected.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+Path, func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		p, err := s.GetUserProfileAsync(ctx).Wait(ctx)
		switch {
		case err == nil:
			writeJSON(w, http.StatusOK, p)
		case errors.Is(err, ErrInjected):
			writeJSON(w, http.StatusInternalServerError, errorBody{Error: err.Error(), Code: codeInjected})
		default:
			// The client went away; nobody will read this, but answer sensibly anyway.
			writeJSON(w, http.StatusServiceUnavailable, errorBody{Error: err.Error(), Code: "canceled"})
		}
	})
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the status is sent; a write error means the client left
}

// Client calls a remote profile service served by Handler.
type Client struct {
	url string
	hc  *http.Client
}

// NewClient returns a client for the service at baseURL (e.g. "http://127.0.0.1:9000").
// A nil hc means http.DefaultClient. Reuse one Client: it shares hc's connections.
func NewClient(baseURL string, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{url: strings.TrimRight(baseURL, "/") + Path, hc: hc}
}

// Get fetches the profile, bounded by ctx. An injected fault on the server side comes back
// as an error wrapping ErrInjected.
func (c *Client) Get(ctx context.Context) (Profile, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return Profile{}, fmt.Errorf("profile: build request: %w", err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return Profile{}, fmt.Errorf("profile: get %s: %w", c.url, err)
	}
	defer resp.Body.Close()
	// Bounded read: the answer is tiny, and a broken server must not exhaust memory.
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return Profile{}, fmt.Errorf("profile: read response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var eb errorBody
		_ = json.Unmarshal(body, &eb) // best effort: the status alone is already an error
		if eb.Code == codeInjected {
			return Profile{}, fmt.Errorf("profile: remote status %d: %w", resp.StatusCode, ErrInjected)
		}
		return Profile{}, fmt.Errorf("profile: remote status %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	var p Profile
	if err := json.Unmarshal(body, &p); err != nil {
		return Profile{}, fmt.Errorf("profile: decode response: %w", err)
	}
	return p, nil
}
