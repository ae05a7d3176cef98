package api

import (
	"context"
	"database/sql"

	"github.com/gin-gonic/gin"
)

// GinItem is a gin handler whose engine app builds with gin's default
// ContextWithFallback = false: c given as a context is never cancelled,
// which this package cannot know; app decides, and the finding is here.
func GinItem(c *gin.Context) {
	_ = lookupItem(c, "1") // finding: SIO002
}

func lookupItem(ctx context.Context, id string) error {
	_, err := itemsDB.QueryContext(ctx, "SELECT 1 WHERE id = ?", id)
	return err
}

var itemsDB *sql.DB
