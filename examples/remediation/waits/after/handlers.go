package after

import (
	"context"
	"net/http"
	"time"
)

// Jobs hands out queued jobs and pings a flaky downstream service.
type Jobs struct {
	Queue chan string
	Ping  func(context.Context) error
}

// retry calls fn up to attempts times, doubling the pause each time, and
// stops as soon as ctx ends.
func retry(ctx context.Context, attempts int, pause time.Duration, fn func(context.Context) error) error {
	var err error
	for range attempts {
		if err = fn(ctx); err == nil {
			return nil
		}
		t := time.NewTimer(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
		pause *= 2
	}
	return err
}

// Health stops retrying when the client goes away.
func (j *Jobs) Health(w http.ResponseWriter, r *http.Request) {
	if err := retry(r.Context(), 5, 100*time.Millisecond, j.Ping); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// Next waits for a job only as long as someone is waiting for the answer.
func (j *Jobs) Next(w http.ResponseWriter, r *http.Request) {
	select {
	case job := <-j.Queue:
		_, _ = w.Write([]byte(job))
	case <-r.Context().Done():
		// The client is gone; the job stays queued for the next one.
	}
}
