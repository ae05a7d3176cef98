package ginwatch

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/syncio/syncio/blockwatch"
)

// Unmatched is the route label of requests no route matched (a fixed
// value keeps the label set bounded).
const Unmatched = "unmatched"

// Middleware labels the request goroutine with the matched route
// pattern (c.FullPath) for the rest of the chain.
func Middleware() gin.HandlerFunc {
	return func(c *gin.Context) {
		route := c.FullPath()
		if route == "" {
			route = Unmatched
		}
		blockwatch.Do(c.Request.Context(), route, func(ctx context.Context) {
			c.Request = c.Request.WithContext(ctx)
			c.Next()
		})
	}
}

// Hold is gin's form of blockwatch.Hold: it marks the request as holding
// name until release, and puts the marked context on c.Request so that
// handlers, and blockwatch.Drop in a pool that awaits, derive from it.
func Hold(c *gin.Context, name string) (release func()) {
	ctx, release := blockwatch.Hold(c.Request.Context(), name)
	if ctx != c.Request.Context() { // unwatched requests cost no allocation
		c.Request = c.Request.WithContext(ctx)
	}
	return release
}
