package after

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/syncio/syncio/api/pool"
)

// TestProfileErrorIsNotEchoed: a failed profile call, whose error names
// the profile service's URL, is logged; the client gets a generic JSON
// 502, and the worker is given back.
func TestProfileErrorIsNotEchoed(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // every call fails to connect
	a := &App{Pool: pool.New(1, 0), Client: down.Client(), ProfileURL: down.URL + "/internal/profiles"}
	h := a.Admit(http.HandlerFunc(a.Profile))
	for range 2 { // one worker, no queue: the second request is served only if the first gave it back
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/profile", nil))
		if body := rec.Body.String(); rec.Code != http.StatusBadGateway || strings.Contains(body, down.URL) || !strings.Contains(body, `"code":"upstream"`) {
			t.Errorf("status %d %q, want 502 with a generic JSON error", rec.Code, body)
		}
	}
}
