// Package ginfb builds an engine with the fallback on, above its handlers.
package ginfb

import (
	"github.com/gin-gonic/gin"

	"example.com/wired/ginfb/handlers"
)

func New() *gin.Engine {
	e := gin.New()
	e.ContextWithFallback = true
	e.GET("/fb", handlers.Item)
	return e
}
