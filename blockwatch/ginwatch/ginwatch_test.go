package ginwatch_test

import (
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/blockwatch/ginwatch"
)

func TestMiddlewareLabelsRouteAndHold(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(ginwatch.Middleware())
	type seen struct{ route, holding string }
	var got seen
	r.GET("/users/:id", func(c *gin.Context) {
		got.route, _ = pprof.Label(c.Request.Context(), blockwatch.RouteLabel)
		release := ginwatch.Hold(c, "pool")
		got.holding, _ = pprof.Label(c.Request.Context(), blockwatch.HoldingLabel)
		release()
		c.Status(http.StatusNoContent)
	})
	var unmatched string
	r.NoRoute(func(c *gin.Context) {
		unmatched, _ = pprof.Label(c.Request.Context(), blockwatch.RouteLabel)
		c.Status(http.StatusNotFound)
	})

	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/users/42", nil))
	if rec.Code != http.StatusNoContent {
		t.Fatalf("status %d", rec.Code)
	}
	if got.route != "/users/:id" || got.holding != "pool" {
		t.Errorf("labels route %q holding %q, want the pattern /users/:id and pool", got.route, got.holding)
	}
	rec = httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/nope/1", nil))
	if unmatched != ginwatch.Unmatched {
		t.Errorf("unmatched request labelled %q, want %q", unmatched, ginwatch.Unmatched)
	}
}
