package after

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Schema is the outbox table SQLStore expects (PostgreSQL). The partial
// index keeps the claim's scan to the pending rows, in claim order.
const Schema = `
CREATE TABLE outbox (
	id              bigserial PRIMARY KEY,
	kind            text NOT NULL,
	order_id        text NOT NULL,
	state           text NOT NULL DEFAULT 'pending', -- pending, sent, dead
	attempts        int NOT NULL DEFAULT 0,
	next_attempt_at timestamptz NOT NULL DEFAULT now(),
	last_error      text
);
CREATE INDEX outbox_due ON outbox (id) WHERE state = 'pending';`

// SQLStore is the outbox in PostgreSQL (9.5 or later, for SKIP LOCKED).
// The database's clock decides what is due, so workers on several
// machines agree whatever their own clocks say.
type SQLStore struct{ DB *sql.DB }

// claimSQL leases the oldest due row in one statement. FOR UPDATE SKIP
// LOCKED lets concurrent workers pass over the row another is claiming
// instead of queueing behind its lock; the lease (next_attempt_at moved
// ahead) keeps it from them after this statement commits, while the
// charge runs with no transaction open.
const claimSQL = `
UPDATE outbox SET attempts = attempts + 1, next_attempt_at = now() + $1 * interval '1 millisecond'
WHERE id = (
	SELECT id FROM outbox
	WHERE state = 'pending' AND next_attempt_at <= now()
	ORDER BY id
	LIMIT 1
	FOR UPDATE SKIP LOCKED)
RETURNING id, order_id, attempts`

// Claim implements Store.
func (s SQLStore) Claim(ctx context.Context, lease time.Duration) (Claim, bool, error) {
	var c Claim
	err := s.DB.QueryRowContext(ctx, claimSQL, lease.Milliseconds()).Scan(&c.ID, &c.OrderID, &c.Attempts)
	if errors.Is(err, sql.ErrNoRows) {
		return Claim{}, false, nil
	}
	return c, err == nil, err
}

// Done implements Store.
func (s SQLStore) Done(ctx context.Context, c Claim) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE outbox SET state = 'sent', last_error = NULL WHERE id = $1", c.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", c.OrderID)
		return err
	})
}

// Retry implements Store. attempts = $4 fences a worker whose lease ran
// out: its late outcome does not move a row another worker holds.
func (s SQLStore) Retry(ctx context.Context, c Claim, delay time.Duration, reason string) error {
	_, err := s.DB.ExecContext(ctx, `UPDATE outbox SET next_attempt_at = now() + $2 * interval '1 millisecond', last_error = $3
		WHERE id = $1 AND state = 'pending' AND attempts = $4`, c.ID, delay.Milliseconds(), reason, c.Attempts)
	return err
}

// Dead implements Store.
func (s SQLStore) Dead(ctx context.Context, c Claim, reason string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET state = 'dead', last_error = $2
			WHERE id = $1 AND state = 'pending' AND attempts = $3`, c.ID, reason, c.Attempts)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // fenced: another worker holds the row now
		}
		_, err = tx.ExecContext(ctx, "UPDATE orders SET status = 'payment_failed' WHERE id = $1", c.OrderID)
		return err
	})
}

func (s SQLStore) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it returns sql.ErrTxDone, which is expected
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}
