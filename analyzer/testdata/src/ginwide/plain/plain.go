// Package plain's handlers are registered by plainrouter, which keeps
// gin's default: c is never cancelled, and the findings this package
// holds are reported there, at their calls here.
package plain

import (
	"github.com/gin-gonic/gin"

	"ginwide/store"
)

func Get(c *gin.Context) {
	_ = store.Find(c, "1") // reports: `store.Find is given c \(a \*gin.Context, never cancelled unless the engine sets ContextWithFallback = true\) instead of the request context; pass c.Request.Context\(\)`
	_ = lookup(c)          // reports: `Get calls plain.lookup → ginwide/store.Find, which is given c`
}

func lookup(c *gin.Context) error { return store.Find(c, "x") }
