package after

import (
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Admission bounds what the server takes on at once. Size MaxInFlight
// from what the service's scarce resources take (a database pool, the
// downstream limits) and MaxBodyBytes from its memory: a request admitted
// reads its body, so the admitted bodies are what the requests hold. Set
// the runtime's soft memory limit too (GOMEMLIMIT), which this does not
// replace: it keeps the collector ahead of what is admitted.
type Admission struct {
	MaxInFlight  int                    // requests served at once
	MaxBodyBytes int64                  // request-body bytes admitted at once
	UnknownBody  int64                  // charged for, and the cap of, a body of unknown length (chunked)
	RetryAfter   time.Duration          // told to the clients refused
	Rejected     *prometheus.CounterVec // by reason: in_flight, body_bytes, too_large

	mu       sync.Mutex
	inFlight int
	bytes    int64
}

// Wrap admits each request to next, or answers it at once.
func (a *Admission) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size := r.ContentLength
		if size < 0 {
			size = a.UnknownBody
			r.Body = http.MaxBytesReader(w, r.Body, size)
		}
		if size > a.MaxBodyBytes {
			a.refuse(w, http.StatusRequestEntityTooLarge, "too_large", `{"error":"request body too large","code":"too_large"}`)
			return
		}
		if reason := a.acquire(size); reason != "" {
			a.refuse(w, http.StatusServiceUnavailable, reason, `{"error":"server busy, retry later","code":"overloaded"}`)
			return
		}
		defer a.release(size)
		next.ServeHTTP(w, r)
	})
}

// acquire admits one request holding size body bytes, or names the bound
// it would pass.
func (a *Admission) acquire(size int64) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.inFlight >= a.MaxInFlight:
		return "in_flight"
	case a.bytes+size > a.MaxBodyBytes:
		return "body_bytes"
	}
	a.inFlight++
	a.bytes += size
	return ""
}

func (a *Admission) release(size int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.inFlight--
	a.bytes -= size
}

// refuse answers without reading the body. After the handler, net/http
// reads up to 256 KB of an unread body to keep the connection, and closes
// it past that; a client still sending a larger body may then see a reset
// instead of this answer (the demo's api/bodydrain.go drains such bodies
// for a bounded time so that it does not).
func (a *Admission) refuse(w http.ResponseWriter, status int, reason, body string) {
	a.Rejected.WithLabelValues(reason).Inc()
	w.Header().Set("Content-Type", "application/json")
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(a.RetryAfter.Round(time.Second)/time.Second))))
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
