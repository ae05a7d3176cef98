package after

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	detached "github.com/syncio/syncio/examples/remediation/detached/after"
)

// Proxy serves a gin route that calls the profile service.
type Proxy struct {
	Client     *http.Client
	ProfileURL string
	// CallTimeout bounds one call to the profile service; zero means 2 s.
	CallTimeout time.Duration
}

// Profile gives the call the request's context, bounded: it ends when the
// client hangs up, whatever the engine's ContextWithFallback.
func (p *Proxy) Profile(c *gin.Context) {
	timeout := p.CallTimeout
	if timeout == 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.ProfileURL+"/profiles/"+c.Param("id"), nil)
	if err != nil {
		_ = c.Error(err) // for the logging middleware; the client gets no detail
		c.JSON(http.StatusInternalServerError, gin.H{"error": "internal error", "code": "internal"})
		return
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		c.JSON(http.StatusBadGateway, gin.H{"error": "profile service unavailable", "code": "upstream"})
		return
	}
	defer resp.Body.Close()
	c.Status(resp.StatusCode)
	_, _ = io.Copy(c.Writer, resp.Body)
}

// Audit records a visit after the response, on a Detacher: a bounded
// queue and a few workers (../../detached/after), not a goroutine per
// request. The job never sees c: gin pools its Contexts and hands this one
// to another request once the handler returns. It gets what it needs
// copied out, and the Detacher runs it with the request's values, without
// its cancellation, under a deadline of its own.
func (p *Proxy) Audit(c *gin.Context, d *detached.Detacher, record func(ctx context.Context, route, id string)) {
	route, id := c.FullPath(), c.Param("id")
	if !d.Go(c.Request.Context(), func(ctx context.Context) { record(ctx, route, id) }) {
		slog.WarnContext(c.Request.Context(), "audit dropped: queue full", "route", route, "id", id)
	}
	c.Status(http.StatusNoContent)
}
