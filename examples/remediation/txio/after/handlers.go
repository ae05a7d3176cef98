package after

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"time"
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

// Pay records the order and the charge to make in one transaction that
// holds its connection only for the two inserts; the worker charges.
func (o *Orders) Pay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	tx, err := o.DB.BeginTx(ctx, nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it returns sql.ErrTxDone, which is expected
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'charging' WHERE id = $1", id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO outbox (kind, order_id) VALUES ('charge', $1)", id); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := tx.Commit(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// RunOutbox charges the orders of the outbox until ctx ends. It runs in
// its own goroutine, started with the server, off every request path. Each
// tick drains the outbox one order at a time; a failed charge stays in the
// outbox for the next tick.
func (o *Orders) RunOutbox(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for o.chargeNext(ctx) {
		}
	}
}

// chargeNext charges the oldest order of the outbox and marks it done. It
// reports whether there may be more to do now.
func (o *Orders) chargeNext(ctx context.Context) bool {
	var id string
	if err := o.DB.QueryRowContext(ctx, "SELECT order_id FROM outbox WHERE done = false LIMIT 1").Scan(&id); err != nil {
		return false // sql.ErrNoRows: nothing to do
	}
	if err := o.Payments.Charge(ctx, id); err != nil {
		return false // retried on the next tick
	}
	_, err := o.DB.ExecContext(ctx, "UPDATE outbox SET done = true WHERE order_id = $1", id)
	return err == nil
}
