package after_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/syncio/syncio/examples/remediation/ginctx/after"
)

// newTestContext is gin.CreateTestContext with a request. CreateTestContext
// alone leaves c.Request nil, so a handler that passes
// c.Request.Context() (as it should) panics in a test that used to pass
// when the handler passed c. The request carries the test's context,
// which ends when the test does.
func newTestContext(t *testing.T, method, target string, body io.Reader) (*gin.Context, *httptest.ResponseRecorder) {
	t.Helper()
	rec := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(rec)
	c.Request = httptest.NewRequestWithContext(t.Context(), method, target, body)
	return c, rec
}

// TestHandlerUnderCreateTestContext: the after handler, called directly
// on a test context, panics without a request and serves with one.
func TestHandlerUnderCreateTestContext(t *testing.T) {
	gin.SetMode(gin.TestMode)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"name":"ada"}`)
	}))
	defer up.Close()
	p := &after.Proxy{Client: up.Client(), ProfileURL: up.URL}

	bare, _ := gin.CreateTestContext(httptest.NewRecorder())
	bare.Params = gin.Params{{Key: "id", Value: "7"}}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("c.Request.Context() under a bare CreateTestContext did not panic; the helper may be unneeded now")
			}
		}()
		p.Profile(bare)
	}()

	c, rec := newTestContext(t, http.MethodGet, "/profiles/7", nil)
	c.Params = gin.Params{{Key: "id", Value: "7"}}
	p.Profile(c)
	if rec.Code != http.StatusOK || rec.Body.String() != `{"name":"ada"}` {
		t.Errorf("with newTestContext: %d %q, want 200 and the profile", rec.Code, rec.Body.String())
	}
}

// TestProfileErrorIsNotEchoed: a request that cannot be built (a bad
// profile URL) gets a generic JSON 500; the error goes to c.Errors for
// the logging middleware, not to the client.
func TestProfileErrorIsNotEchoed(t *testing.T) {
	gin.SetMode(gin.TestMode)
	p := &after.Proxy{Client: http.DefaultClient, ProfileURL: "http://internal.example\x7f"}
	c, rec := newTestContext(t, http.MethodGet, "/profiles/7", nil)
	p.Profile(c)
	if body := rec.Body.String(); rec.Code != http.StatusInternalServerError || strings.Contains(body, "internal.example") || !strings.Contains(body, `"code":"internal"`) {
		t.Errorf("status %d %q, want 500 with a generic JSON error", rec.Code, body)
	}
	if len(c.Errors) != 1 {
		t.Errorf("c.Errors has %d errors, want the one for the logs", len(c.Errors))
	}
}
