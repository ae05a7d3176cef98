// Package routed's handlers are registered by router, which sets
// ContextWithFallback = true: passing c is no finding, although this
// package cannot see the setting.
package routed

import (
	"database/sql"

	"github.com/gin-gonic/gin"

	"ginwide/store"
)

var db *sql.DB

func Get(c *gin.Context) {
	_ = store.Find(c, "1")
	_ = lookup(c)
	_ = db.Ping() // reports: `Ping blocks`
}

// lookup is a helper of the handler's, given c as a context.
func lookup(c *gin.Context) error { return store.Find(c, "x") }
