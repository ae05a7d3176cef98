// Package c is the bottom of a cross-package chain.
package c

import (
	"context"
	"database/sql"
	"net/http"
)

var DB *sql.DB

func Fetch(u string) error { // want Fetch:`^blocks\(SIO001: net/http.Get\)$`
	_, err := http.Get(u)
	return err
}

// Get is generic and blocks for every instantiation.
func Get[T any](u string) (T, error) { // want Get:`^blocks\(SIO001: c.Fetch → net/http.Get\)$`
	var zero T
	return zero, Fetch(u)
}

// Drop blocks by dropping the caller's context.
func Drop() error { return DB.PingContext(context.Background()) } // want Drop:`^blocks\(SIO002: database/sql.\(\*DB\).PingContext\)$`

// FetchCtx passes its ctx on: clean when the caller's ctx is the request's.
func FetchCtx(ctx context.Context, u string) error { // want FetchCtx:`^blocks\(SIO008: net/http\.\(\*Client\)\.Do\) \+ io\(net/http\.\(\*Client\)\.Do\)$`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// Pure does not block.
func Pure(u string) int { return len(u) }
