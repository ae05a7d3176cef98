// Package hertzdemo covers cloudwego/hertz handlers as request roots,
// declared and as func literals.
package hertzdemo

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/cloudwego/hertz/pkg/app"
	"github.com/cloudwego/hertz/pkg/app/server"
)

var db *sql.DB

func Ping(ctx context.Context, c *app.RequestContext) {
	_, _ = http.Get("http://example.com/" + c.Param("id")) // want `^net/http.Get blocks without the request context`
	_, _ = db.QueryContext(ctx, "SELECT 1")
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `QueryContext is given context.Background\(\)`
	c.String(http.StatusOK, "pong")
}

func routes() {
	h := server.Default()
	h.GET("/ping", Ping)
	h.GET("/sleep", func(ctx context.Context, c *app.RequestContext) {
		time.Sleep(time.Second) // want `time.Sleep waits`
	})
}

// NoCtx lacks the context parameter: not a root.
func NoCtx(c *app.RequestContext) { // want NoCtx:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
}

// WithError returns an error, unlike app.HandlerFunc: not a root.
func WithError(ctx context.Context, c *app.RequestContext) error { // want WithError:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
	return nil
}

// Swapped has the parameters in the wrong order: not a root.
func Swapped(c *app.RequestContext, ctx context.Context) { // want Swapped:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Second)
}
