// Package notify calls a remote service, and holds a transaction across
// one in a helper, for txio's cross-package cases.
package notify

import (
	"context"
	"database/sql"
	"net/http"
)

// Send calls the remote service with the caller's context.
func Send(ctx context.Context, url string) error { // want Send:`^blocks\(SIO008: net/http\.\(\*Client\)\.Do\) \+ io\(net/http\.\(\*Client\)\.Do\)$`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Record writes and notifies inside one transaction.
func Record(ctx context.Context, db *sql.DB, url string) error { // want Record:`blocks\(\+SIO007: net/http.\(\*Client\).Do\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT"); err != nil {
		return err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if _, err := http.DefaultClient.Do(req); err != nil {
		return err
	}
	return tx.Commit()
}
