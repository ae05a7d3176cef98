package after

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// recorder replaces Backoff's wait: it records each pause and takes none.
type recorder struct{ pauses []time.Duration }

func (r *recorder) wait(_ context.Context, d time.Duration) error {
	r.pauses = append(r.pauses, d)
	return nil
}

var errDown = errors.New("down")

func TestBackoffNoPauseAfterTheLastAttempt(t *testing.T) {
	rec := &recorder{}
	b := Backoff{Attempts: 4, Base: 100 * time.Millisecond, Max: 250 * time.Millisecond, wait: rec.wait}
	calls := 0
	err := b.Do(context.Background(), func(context.Context) error { calls++; return errDown })
	if !errors.Is(err, errDown) || calls != 4 {
		t.Fatalf("err %v after %d calls, want errDown after 4", err, calls)
	}
	if len(rec.pauses) != 3 {
		t.Fatalf("%d pauses for 4 attempts, want 3 (none after the last): %v", len(rec.pauses), rec.pauses)
	}
	for i, limit := range []time.Duration{100, 200, 250} { // ms: Base·2^i, capped by Max
		if p := rec.pauses[i]; p < 0 || p >= limit*time.Millisecond {
			t.Errorf("pause %d is %v, want in [0, %v)", i+1, p, limit*time.Millisecond)
		}
	}
}

// TestBackoffJitters: pauses are drawn, not fixed, so clients that failed
// together spread out. 20 draws below 1 s all equal would mean no jitter.
func TestBackoffJitters(t *testing.T) {
	rec := &recorder{}
	b := Backoff{Attempts: 2, Base: time.Second, wait: rec.wait}
	for range 20 {
		_ = b.Do(context.Background(), func(context.Context) error { return errDown })
	}
	for _, p := range rec.pauses[1:] {
		if p != rec.pauses[0] {
			return
		}
	}
	t.Errorf("20 pauses all %v", rec.pauses[0])
}

func TestBackoffHonoursRetryAfter(t *testing.T) {
	rec := &recorder{}
	b := Backoff{Attempts: 2, Base: 10 * time.Millisecond, wait: rec.wait}
	_ = b.Do(context.Background(), func(context.Context) error {
		return &RetryAfterError{Wait: 3 * time.Second, Err: errDown}
	})
	if len(rec.pauses) != 1 || rec.pauses[0] != 3*time.Second {
		t.Errorf("pauses %v, want [3s] as the server asked", rec.pauses)
	}
}

func TestBackoffStopsOnPermanent(t *testing.T) {
	rec := &recorder{}
	b := Backoff{Attempts: 5, Base: time.Millisecond, wait: rec.wait}
	calls := 0
	err := b.Do(context.Background(), func(context.Context) error { calls++; return Permanent(errDown) })
	if !errors.Is(err, errDown) || calls != 1 || len(rec.pauses) != 0 {
		t.Errorf("err %v, %d calls, pauses %v; want errDown, 1 call, none", err, calls, rec.pauses)
	}
}

// TestBackoffDoesNotWaitPastTheDeadline: a Retry-After longer than what is
// left of ctx returns the error now instead of sleeping into the deadline.
func TestBackoffDoesNotWaitPastTheDeadline(t *testing.T) {
	rec := &recorder{}
	b := Backoff{Attempts: 3, Base: time.Millisecond, wait: rec.wait}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := b.Do(ctx, func(context.Context) error { return &RetryAfterError{Wait: time.Hour, Err: errDown} })
	if !errors.Is(err, errDown) || len(rec.pauses) != 0 {
		t.Errorf("err %v, pauses %v; want errDown and no pause", err, rec.pauses)
	}
}

// TestBackoffEndsWithTheContext uses the real wait: a cancelled context
// ends the pause, and the error says both what failed and why it stopped.
func TestBackoffEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := Backoff{Attempts: 3, Base: time.Hour}
	err := b.Do(ctx, func(context.Context) error { cancel(); return errDown })
	if !errors.Is(err, errDown) || !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want errDown and Canceled", err)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"7":                             7 * time.Second,
		"Tue, 01 Dec 2026 12:00:30 GMT": 30 * time.Second,
		"Tue, 01 Dec 2026 11:00:00 GMT": 0,
	} {
		resp := &http.Response{Header: http.Header{"Retry-After": {v}}}
		if d, ok := RetryAfter(resp, now); !ok || d != want {
			t.Errorf("Retry-After %q: %v %v, want %v", v, d, ok, want)
		}
	}
	for _, v := range []string{"", "soon", "-1"} {
		resp := &http.Response{Header: http.Header{"Retry-After": {v}}}
		if _, ok := RetryAfter(resp, now); ok {
			t.Errorf("Retry-After %q read as valid", v)
		}
	}
}
