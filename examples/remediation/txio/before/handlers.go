package before

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
)

// Payments is the client of a remote payment service.
type Payments struct {
	Client *http.Client
	URL    string
}

// Charge asks the payment service to charge an order.
func (p *Payments) Charge(ctx context.Context, orderID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL+"/charge?order="+url.QueryEscape(orderID), nil)
	if err != nil {
		return fmt.Errorf("charge %s: %w", orderID, err)
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		return fmt.Errorf("charge %s: %w", orderID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("charge %s: %s", orderID, resp.Status)
	}
	return nil
}

// Orders serves the order endpoints.
type Orders struct {
	DB       *sql.DB
	Payments *Payments
}

// Pay marks an order paid and charges it inside one transaction, so the
// transaction's connection waits for the payment service.
func (o *Orders) Pay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	tx, err := o.DB.BeginTx(ctx, nil)
	if err != nil {
		fail(w, r, http.StatusServiceUnavailable, "db_unavailable", err)
		return
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it returns sql.ErrTxDone, which is expected
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	if err := o.Payments.Charge(ctx, id); err != nil { // syncio: SIO007
		fail(w, r, http.StatusBadGateway, "payment_failed", err)
		return
	}
	if err := tx.Commit(); err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// fail logs err and answers a generic JSON error: the driver's or the
// payment service's message may name hosts, queries or URLs, and stays in
// the log.
func fail(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	slog.ErrorContext(r.Context(), "pay", "code", code, "err", err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status), "code": code})
}
