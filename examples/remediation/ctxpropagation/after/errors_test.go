package after

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLoadErrorIsNotEchoed: a failed load, whose error names the store's
// URL, is logged; the client gets a generic JSON 502 from Get and Preview.
func TestLoadErrorIsNotEchoed(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // every call fails to connect
	h := &Handler{Store: &Store{Client: down.Client(), URL: down.URL + "/internal/kv"}}
	for name, serve := range map[string]http.HandlerFunc{"Get": h.Get, "Preview": h.Preview} {
		rec := httptest.NewRecorder()
		serve(rec, httptest.NewRequest(http.MethodGet, "/k", nil))
		if body := rec.Body.String(); rec.Code != http.StatusBadGateway || strings.Contains(body, down.URL) || !strings.Contains(body, `"code":"upstream"`) {
			t.Errorf("%s: status %d %q, want 502 with a generic JSON error", name, rec.Code, body)
		}
	}
}
