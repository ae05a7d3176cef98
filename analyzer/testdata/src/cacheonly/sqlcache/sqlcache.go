// Package sqlcache is the program's own kv.Cache, which queries a
// database with the context it is given.
package sqlcache

import (
	"context"
	"database/sql"
)

type Cache struct{ DB *sql.DB }

func (c *Cache) GetString(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := c.DB.QueryRowContext(ctx, "SELECT v FROM kv WHERE k = $1", key).Scan(&v)
	return v, err == nil, err
}
