package after

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestQuoteErrorIsNotEchoed: a failed price call, whose error names the
// price service's URL, is logged; the client gets a generic JSON 502.
func TestQuoteErrorIsNotEchoed(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // every call fails to connect
	q := NewQuotes(&Prices{Client: down.Client(), URL: down.URL + "/internal/prices"}, 4)
	rec := httptest.NewRecorder()
	q.Quote(rec, httptest.NewRequest(http.MethodGet, "/quote?item=a", nil))
	if body := rec.Body.String(); rec.Code != http.StatusBadGateway || strings.Contains(body, down.URL) || !strings.Contains(body, `"code":"upstream"`) {
		t.Errorf("status %d %q, want 502 with a generic JSON error", rec.Code, body)
	}
}
