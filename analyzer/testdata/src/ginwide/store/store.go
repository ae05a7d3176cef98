// Package store takes a context and queries with it: given a *gin.Context,
// it is cancelled with the request only if the engine sets
// ContextWithFallback.
package store

import (
	"context"
	"database/sql"
)

var db *sql.DB

func Find(ctx context.Context, id string) error {
	_, err := db.QueryContext(ctx, "SELECT 1 WHERE id = ?", id)
	return err
}
