// Package ginflag's engine is built elsewhere with ContextWithFallback on:
// run with -gin-context-fallback, passing c is no SIO002.
package ginflag

import (
	"database/sql"

	"github.com/gin-gonic/gin"
)

var db *sql.DB

func Handler(c *gin.Context) {
	_, _ = db.QueryContext(c, "SELECT 1")
	_ = db.Ping() // want `Ping blocks`
}
