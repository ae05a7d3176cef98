// Package router builds the engine with the fallback on, above the
// handlers that receive c.
package router

import (
	"github.com/gin-gonic/gin"

	"ginwide/routed"
)

func New() *gin.Engine {
	r := gin.New()
	r.ContextWithFallback = true
	r.GET("/items/:id", routed.Get)
	return r
}
