package after

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Backoff retries a call with capped exponential backoff and full jitter.
//
// Retry only what is idempotent. A call whose answer was lost (a timeout, a
// reset connection) may have taken effect, so retrying a charge or an
// insert repeats it. Retry those only with an idempotency key that the
// server deduplicates on (txio/after sends one with every charge).
type Backoff struct {
	Attempts int           // calls in all, the first included; below 1 means 1
	Base     time.Duration // the cap of the first pause; it doubles after each attempt
	Max      time.Duration // the cap of any pause

	// wait pauses for d or until ctx ends; nil means a timer. Tests
	// replace it to record the pauses without taking them.
	wait func(ctx context.Context, d time.Duration) error
}

// RetryAfterError is a failure whose server said when to come back: a 429
// or 503 with a Retry-After header. Backoff waits at least that long.
type RetryAfterError struct {
	Wait time.Duration
	Err  error
}

func (e *RetryAfterError) Error() string { return fmt.Sprintf("%v (retry after %v)", e.Err, e.Wait) }
func (e *RetryAfterError) Unwrap() error { return e.Err }

// permanentError is a failure that retrying cannot fix.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

// Permanent marks err as not worth retrying (a 400, a 404, a validation
// error): Do returns it at once.
func Permanent(err error) error { return permanentError{err} }

// Do calls fn until it succeeds, fails permanently, runs out of attempts,
// or ctx ends. It never pauses after the last attempt, and it does not
// start a pause that ctx's deadline would cut short: it returns the last
// error instead, so the caller does not wait for a failure it can have now.
func (b Backoff) Do(ctx context.Context, fn func(context.Context) error) error {
	wait := b.wait
	if wait == nil {
		wait = sleep
	}
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		var perm permanentError
		if err == nil || errors.As(err, &perm) || attempt >= b.Attempts {
			return err
		}
		pause := b.pause(attempt)
		var ra *RetryAfterError
		if errors.As(err, &ra) {
			pause = max(pause, ra.Wait)
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < pause {
			return fmt.Errorf("%w (the next attempt would start after the deadline)", err)
		}
		if werr := wait(ctx, pause); werr != nil {
			return fmt.Errorf("%w (gave up waiting to retry: %w)", err, werr)
		}
	}
}

// pause draws the pause after the given attempt (1-based) uniformly in
// [0, min(Max, Base·2^(attempt-1))): "full jitter", so that clients that
// failed together do not come back together.
func (b Backoff) pause(attempt int) time.Duration {
	limit := b.Base
	for i := 1; i < attempt && (b.Max <= 0 || limit < b.Max); i++ {
		limit *= 2
	}
	if b.Max > 0 {
		limit = min(limit, b.Max)
	}
	if limit <= 0 {
		return 0
	}
	return rand.N(limit)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RetryAfter reads a response's Retry-After header, in seconds or as an
// HTTP date; ok is false when it is absent or unreadable.
func RetryAfter(resp *http.Response, now time.Time) (d time.Duration, ok bool) {
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
