// Package unseen's handlers are registered by no package analysed: the
// setting cannot be decided, the finding is held and never reported
// (the standalone driver says so once, with the flag that decides it).
package unseen

import (
	"github.com/gin-gonic/gin"

	"ginwide/store"
)

func Get(c *gin.Context) {
	_ = store.Find(c, "3")
}
