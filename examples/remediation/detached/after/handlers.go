package after

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
	Audit    *Auditor
	Detached *Detacher
	Log      *slog.Logger
}

// Document answers at once and records the visit afterwards, on the
// Detacher: the record survives the client hanging up, runs under a
// deadline, and waits for a free worker instead of starting a goroutine.
// Under overload a visit record is dropped and counted; a record that may
// never be lost belongs in the request's own transaction (an outbox,
// ../../txio/after), not in a goroutine.
func (h *Handler) Document(w http.ResponseWriter, r *http.Request) {
	v := Visit{Route: "/documents/{id}", ID: r.PathValue("id")}
	queued := h.Detached.Go(r.Context(), func(ctx context.Context) {
		if err := h.Audit.Record(ctx, v); err != nil {
			h.Log.Warn("audit failed", "id", v.ID, "err", err)
		}
	})
	if !queued {
		h.Log.Warn("audit dropped: queue full", "id", v.ID)
	}
	w.WriteHeader(http.StatusNoContent)
}
