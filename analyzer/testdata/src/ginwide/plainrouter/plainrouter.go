// Package plainrouter builds an engine and keeps gin's default
// ContextWithFallback = false.
package plainrouter

import (
	"github.com/gin-gonic/gin"

	"ginwide/plain"
)

func New() *gin.Engine {
	r := gin.New()
	r.GET("/plain", plain.Get)
	return r
}
