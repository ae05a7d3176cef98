// Package engine builds the program's engine with the fallback on, below
// the handlers that register on it.
package engine

import "github.com/gin-gonic/gin"

func New() *gin.Engine {
	e := gin.New()
	e.ContextWithFallback = true
	return e
}
