// Package viamain's handlers are registered on an engine that a
// dependency builds; no package sets the fallback, so main, the top of
// the program, reports what this package held.
package viamain

import (
	"github.com/gin-gonic/gin"

	"ginwide/store"
)

func Register(r *gin.RouterGroup) { r.GET("/via", Get) }

func Get(c *gin.Context) {
	_ = store.Find(c, "2") // reports: `store.Find is given c`
}
