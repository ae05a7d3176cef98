package after

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// Jobs hands out queued jobs and pings a flaky downstream service.
type Jobs struct {
	Queue chan string
	Ping  func(context.Context) error
}

// pingBackoff retries the ping, an idempotent read: five calls at most,
// pauses drawn below 100 ms, 200 ms, 400 ms, 800 ms.
var pingBackoff = Backoff{Attempts: 5, Base: 100 * time.Millisecond, Max: time.Second}

// Health stops retrying when the client goes away.
func (j *Jobs) Health(w http.ResponseWriter, r *http.Request) {
	if err := pingBackoff.Do(r.Context(), j.Ping); err != nil {
		fail(w, r, http.StatusServiceUnavailable, "unavailable", err)
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

// fail logs err and answers with a generic JSON error: err may name a
// downstream's URL or a host, which the client must not see.
func fail(w http.ResponseWriter, r *http.Request, status int, code string, err error) {
	slog.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "code", code, "err", err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": http.StatusText(status), "code": code})
}
