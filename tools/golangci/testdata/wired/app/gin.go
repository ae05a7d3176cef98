package app

import (
	"github.com/gin-gonic/gin"

	"example.com/wired/api"
)

// GinRoutes builds the gin engine with gin's defaults.
func GinRoutes() *gin.Engine {
	e := gin.New()
	e.GET("/gin/item", api.GinItem)
	return e
}
