package api

import (
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"
)

// running counts the requests whose handlers have not returned, so that
// Shutdown, having closed the connections still open at its bound, can
// wait for their handlers before it closes storage under them.
type running struct{ n atomic.Int64 }

// track is the middleware that counts a request while its handler runs.
func (r *running) track(c *gin.Context) {
	r.n.Add(1)
	defer r.n.Add(-1)
	c.Next()
}

func (r *running) count() int64 { return r.n.Load() }

// wait polls until no handler runs, for at most d, and reports whether
// none does. Polling is enough: it runs once, at shutdown.
func (r *running) wait(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for r.n.Load() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
