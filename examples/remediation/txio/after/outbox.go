package after

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"
)

// Claim is one outbox row a worker has leased.
type Claim struct {
	ID       int64
	OrderID  string
	Attempts int // this one included: a claim counts as an attempt, so a worker that crashes counts too
}

// Store is the outbox as the worker sees it. SQLStore is the PostgreSQL
// version; MemStore is an in-memory one with the same claim semantics.
type Store interface {
	// Claim leases the oldest due pending row for lease, counting an
	// attempt; ok is false when no row is due. A leased row is due again
	// when its lease runs out, so the row of a worker that died is
	// claimed again, not lost.
	Claim(ctx context.Context, lease time.Duration) (c Claim, ok bool, err error)
	// Done marks the row sent and the order paid, in one transaction.
	Done(ctx context.Context, c Claim) error
	// Retry makes the row due again after delay. Like Dead, it does
	// nothing if the row was claimed again since c (the lease ran out).
	Retry(ctx context.Context, c Claim, delay time.Duration, reason string) error
	// Dead moves the row to its terminal state and the order to
	// payment_failed: a person or a separate process decides what next.
	Dead(ctx context.Context, c Claim, reason string) error
}

// Charger makes the remote call; *Payments is one.
type Charger interface {
	Charge(ctx context.Context, orderID string) error
}

// Worker charges the orders of the outbox. Start as many as the payment
// service should see calls at once: claims skip the rows other workers
// hold.
type Worker struct {
	Store       Store
	Payments    Charger
	CallTimeout time.Duration // one charge; a hung payment service costs at most this
	MaxAttempts int           // then the row is dead
	BaseBackoff time.Duration // the cap of the first pause; it doubles after each attempt
	MaxBackoff  time.Duration // the cap of any pause
	Poll        time.Duration // the pause when no row is due
	Log         *slog.Logger

	jitter func(limit time.Duration) time.Duration // rand.N; tests fix it
}

// lease is how long a claim is kept from other workers: longer than the
// call, so that a row is claimed twice only when its worker died or
// could not record the outcome.
func (w *Worker) lease() time.Duration { return 2*w.CallTimeout + 5*time.Second }

// Run charges due rows until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	for ctx.Err() == nil {
		worked, err := w.Step(ctx)
		if err != nil && ctx.Err() == nil {
			w.Log.Warn("outbox", "err", err)
		}
		if worked && err == nil {
			continue
		}
		t := time.NewTimer(w.Poll)
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		t.Stop()
	}
}

// Step claims one due row and charges it under its own deadline. It
// reports whether it found a row. A crash anywhere after the claim leaves
// the row leased; when the lease runs out another worker claims it and
// charges again, with the same idempotency key (Payments.Charge), so the
// payment service charges once.
func (w *Worker) Step(ctx context.Context) (bool, error) {
	c, ok, err := w.Store.Claim(ctx, w.lease())
	if err != nil || !ok {
		return false, err
	}
	call, cancel := context.WithTimeout(ctx, w.CallTimeout)
	err = w.Payments.Charge(call, c.OrderID)
	cancel()
	switch {
	case err == nil:
		return true, w.Store.Done(ctx, c)
	case ctx.Err() != nil:
		return true, ctx.Err() // stopping: the lease runs out and the row is claimed again
	case c.Attempts >= w.MaxAttempts || errors.Is(err, ErrRefused):
		w.Log.Error("outbox row dead", "order", c.OrderID, "attempts", c.Attempts, "err", err)
		return true, w.Store.Dead(ctx, c, err.Error())
	default:
		return true, w.Store.Retry(ctx, c, w.backoff(c.Attempts), err.Error())
	}
}

// backoff draws the pause after the given attempt (1-based) uniformly in
// [0, min(MaxBackoff, BaseBackoff·2^(attempt-1))]: "full jitter", so
// that rows that failed together (the payment service was down) do not
// all come back together.
func (w *Worker) backoff(attempt int) time.Duration {
	limit := w.BaseBackoff
	for i := 1; i < attempt && limit < w.MaxBackoff; i++ {
		limit *= 2
	}
	limit = min(limit, w.MaxBackoff)
	if limit <= 0 {
		return 0
	}
	if w.jitter != nil {
		return w.jitter(limit)
	}
	return rand.N(limit + 1)
}
