package after

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHealthErrorIsNotEchoed: a failed ping is logged; the client gets a
// generic JSON 503 that does not name the host the ping reached.
func TestHealthErrorIsNotEchoed(t *testing.T) {
	j := &Jobs{Ping: func(context.Context) error {
		return Permanent(errors.New("dial tcp db-primary.internal:5432: connection refused"))
	}}
	rec := httptest.NewRecorder()
	j.Health(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	if body := rec.Body.String(); rec.Code != http.StatusServiceUnavailable || strings.Contains(body, "db-primary") || !strings.Contains(body, `"code":"unavailable"`) {
		t.Errorf("status %d %q, want 503 with a generic JSON error", rec.Code, body)
	}
}
