package before

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
)

// Visit is one audit record.
type Visit struct {
	Route string `json:"route"`
	ID    string `json:"id"`
}

// Auditor is the client of a remote audit service.
type Auditor struct {
	Client *http.Client
	URL    string
}

// Record sends one visit.
func (a *Auditor) Record(ctx context.Context, v Visit) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.URL+"/visits", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := a.Client.Do(req)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("audit: %s", resp.Status)
	}
	return nil
}

// Handler serves the documents and audits each visit.
type Handler struct {
	Audit *Auditor
	Log   *slog.Logger
}

// Document records the visit before it answers, with Background so that
// a client that hangs up does not lose the record.
func (h *Handler) Document(w http.ResponseWriter, r *http.Request) {
	v := Visit{Route: "/documents/{id}", ID: r.PathValue("id")}
	if err := h.Audit.Record(context.Background(), v); err != nil { // syncio: SIO002
		h.Log.Warn("audit failed", "id", v.ID, "err", err)
	}
	w.WriteHeader(http.StatusNoContent)
}

// Preview records the visit in a goroutine of its own: the response does
// not wait, but a burst of requests starts a goroutine (and a connection
// to the audit service) each, and a shutdown drops what is in flight.
func (h *Handler) Preview(w http.ResponseWriter, r *http.Request) {
	v := Visit{Route: "/previews/{id}", ID: r.PathValue("id")}
	go func() {
		if err := h.Audit.Record(context.WithoutCancel(r.Context()), v); err != nil {
			h.Log.Warn("audit failed", "id", v.ID, "err", err)
		}
	}()
	w.WriteHeader(http.StatusNoContent)
}
