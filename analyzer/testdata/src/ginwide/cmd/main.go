// Command cmd is the top of a program whose engine is built by a
// library syncio does not see: main decides that c is never cancelled.
package main

import (
	"github.com/gin-gonic/gin"

	"ginwide/viamain"
)

func main() {
	var g *gin.RouterGroup
	viamain.Register(g)
}
