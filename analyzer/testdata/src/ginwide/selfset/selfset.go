// Package selfset registers its handlers on the engine package's engine,
// which sets the fallback below it: c is the request's context here.
package selfset

import (
	"github.com/gin-gonic/gin"

	"ginwide/engine"
	"ginwide/store"
)

func Routes() *gin.Engine {
	e := engine.New()
	e.GET("/self", Get)
	return e
}

func Get(c *gin.Context) {
	_ = store.Find(c, "4")
}
