// want package:`gin-fallback`

// Package ginfallback sets gin's ContextWithFallback, so its handlers'
// *gin.Context reads the request's context and passing c is no SIO002.
package ginfallback

import (
	"context"
	"database/sql"

	"github.com/gin-gonic/gin"
)

var db *sql.DB

// server embeds the engine, as services do; the field is still gin's.
type server struct{ *gin.Engine }

func New() *server {
	s := &server{Engine: gin.New()}
	s.ContextWithFallback = true
	s.GET("/", Handler)
	return s
}

func Handler(c *gin.Context) {
	_, _ = db.QueryContext(c, "SELECT 1")
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `is given context.Background\(\)`
}
