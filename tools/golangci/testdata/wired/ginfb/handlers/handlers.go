// Package handlers' engine is built by package ginfb, which sets
// ContextWithFallback = true: c is the request's context, no finding.
package handlers

import (
	"context"
	"database/sql"

	"github.com/gin-gonic/gin"
)

var db *sql.DB

func Item(c *gin.Context) { _ = find(c) }

func find(ctx context.Context) error {
	_, err := db.QueryContext(ctx, "SELECT 1")
	return err
}
