package after

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
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

// Charge asks the payment service to charge an order. The outbox delivers
// at least once: a worker that dies after the charge and before marking it
// done charges again on restart. The idempotency key, one per order, lets
// the payment service answer the repeat with the first charge's result
// instead of charging twice; a payment API without such a key cannot be
// called safely from an outbox.
func (p *Payments) Charge(ctx context.Context, orderID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL+"/charge?order="+url.QueryEscape(orderID), nil)
	if err != nil {
		return fmt.Errorf("charge %s: %w", orderID, err)
	}
	req.Header.Set("Idempotency-Key", "charge-"+orderID)
	resp, err := p.Client.Do(req)
	if err != nil {
		return fmt.Errorf("charge %s: %w", orderID, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusOK:
		return nil
	case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests:
		return fmt.Errorf("charge %s: %s: %w", orderID, resp.Status, ErrRefused)
	default:
		return fmt.Errorf("charge %s: %s", orderID, resp.Status)
	}
}

// ErrRefused is a charge the payment service refused (a 4xx other than
// 429: a declined card, a bad request). Retrying repeats the refusal, so
// the worker moves the row to dead at once.
var ErrRefused = errors.New("refused by the payment service")

// Orders serves the order endpoints.
type Orders struct {
	DB       *sql.DB
	Payments *Payments
}

// Pay records the order and the charge to make in one transaction that
// holds its connection only for the two inserts; the worker charges.
func (o *Orders) Pay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	tx, err := o.DB.BeginTx(ctx, nil)
	if err != nil {
		fail(w, r, http.StatusServiceUnavailable, "db_unavailable", err)
		return
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it returns sql.ErrTxDone, which is expected
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'charging' WHERE id = $1", id); err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO outbox (kind, order_id) VALUES ('charge', $1)", id); err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	if err := tx.Commit(); err != nil {
		fail(w, r, http.StatusInternalServerError, "internal", err)
		return
	}
	// 202: accepted, not done. The client reads the outcome at Location.
	w.Header().Set("Location", "/orders/"+id)
	w.WriteHeader(http.StatusAccepted)
}

// Status answers GET /orders/{id} with the order's status: "charging"
// until the worker has charged it, then "paid".
func (o *Orders) Status(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var status string
	err := o.DB.QueryRowContext(r.Context(), "SELECT status FROM orders WHERE id = $1", id).Scan(&status)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case errors.Is(err, sql.ErrNoRows):
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "no such order", "code": "not_found"})
	case err != nil:
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "order status unavailable", "code": "db_unavailable"})
	default:
		_ = json.NewEncoder(w).Encode(map[string]string{"id": id, "status": status})
	}
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
