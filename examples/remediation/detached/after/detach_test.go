package after

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

func newDropped() prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: "audit_dropped_total", Help: "Visit records dropped."})
}

// TestDetacherBounds: one worker and a queue of one take two jobs; the
// third is refused at once, without waiting, and counted.
func TestDetacherBounds(t *testing.T) {
	dropped := newDropped()
	d := NewDetacher(1, 1, time.Minute, dropped)
	started, release := make(chan struct{}), make(chan struct{})
	if !d.Go(t.Context(), func(context.Context) { close(started); <-release }) {
		t.Fatal("the first job was refused")
	}
	<-started // the worker holds it: the queue is empty again
	if !d.Go(t.Context(), func(context.Context) {}) {
		t.Fatal("the second job was refused with the queue empty")
	}
	if d.Go(t.Context(), func(context.Context) { t.Error("the third job ran") }) {
		t.Fatal("the third job was queued past the bound")
	}
	var m dto.Metric
	if err := dropped.Write(&m); err != nil {
		t.Fatal(err)
	}
	if got := m.GetCounter().GetValue(); got != 1 {
		t.Errorf("dropped = %v, want 1", got)
	}
	close(release)
	if err := d.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
}

type ctxKey struct{}

// TestDetachedContext: the job keeps the request's values, is not
// cancelled when the request ends, and has a deadline of its own.
func TestDetachedContext(t *testing.T) {
	d := NewDetacher(1, 1, time.Minute, newDropped())
	defer d.Close(context.Background()) //nolint:errcheck // nothing left to drain
	req, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "trace-1"))
	type seen struct {
		value       any
		hasDeadline bool
		err         error
	}
	got := make(chan seen, 1)
	gate := make(chan struct{})
	d.Go(req, func(ctx context.Context) {
		<-gate
		_, ok := ctx.Deadline()
		got <- seen{ctx.Value(ctxKey{}), ok, ctx.Err()}
	})
	cancel() // the request ends before the job runs
	close(gate)
	s := <-got
	if s.value != "trace-1" || !s.hasDeadline || s.err != nil {
		t.Errorf("job saw value %v, deadline %v, err %v; want trace-1, a deadline, no error", s.value, s.hasDeadline, s.err)
	}
}

// audits is an audit service that records visits, and can hold them.
type audits struct {
	mu      sync.Mutex
	visits  []string
	arrived chan struct{} // one value per request received
	left    chan struct{} // one value per request whose handler returned
	hold    chan struct{} // each request waits for it to close, or for its context
}

func (a *audits) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The body is read first, as a service parses a request before its
	// work: until then net/http does not watch the connection, and a
	// cancelled client would go unnoticed.
	body, _ := io.ReadAll(r.Body)
	a.arrived <- struct{}{}
	defer func() { a.left <- struct{}{} }()
	select {
	case <-a.hold:
	case <-r.Context().Done():
		return
	}
	a.mu.Lock()
	a.visits = append(a.visits, string(body))
	a.mu.Unlock()
}

func (a *audits) recorded() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.visits...)
}

// setup serves Handler.Document from a real http.Server, with an audit
// service that holds every record until released.
func setup(t *testing.T, workers, queue int) (*audits, *httptest.Server, *Detacher) {
	t.Helper()
	a := &audits{arrived: make(chan struct{}, 8), left: make(chan struct{}, 8), hold: make(chan struct{})}
	as := httptest.NewServer(a)
	t.Cleanup(as.Close)
	d := NewDetacher(workers, queue, time.Minute, newDropped())
	h := &Handler{Audit: &Auditor{Client: as.Client(), URL: as.URL}, Detached: d, Log: slog.New(slog.DiscardHandler)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /documents/{id}", h.Document)
	ts := httptest.NewUnstartedServer(mux)
	ts.Config.ReadHeaderTimeout = time.Second
	ts.Start()
	t.Cleanup(ts.Close)
	for _, id := range []string{"1", "2"} {
		resp, err := ts.Client().Get(ts.URL + "/documents/" + id)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("GET /documents/%s: %s", id, resp.Status)
		}
	}
	<-a.arrived // the one worker holds the first record; the second is queued
	return a, ts, d
}

// closing waits until d has stopped taking jobs: Close has begun.
func closing(t *testing.T, d *Detacher) {
	t.Helper()
	guard := time.Now().Add(30 * time.Second) // a hang guard, not a measurement
	for time.Now().Before(guard) {
		d.mu.RLock()
		closed := d.closed
		d.mu.RUnlock()
		if closed {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("Shutdown never closed the Detacher")
}

// TestShutdownDrainsDetachedWork: two requests answered 204 with their
// records still held by the audit service; Shutdown stops the server,
// and returns only once both records are in.
func TestShutdownDrainsDetachedWork(t *testing.T) {
	a, ts, d := setup(t, 1, 4)
	done := make(chan error, 1)
	go func() { done <- Shutdown(context.Background(), ts.Config, d) }()
	closing(t, d)
	if n := len(a.recorded()); n != 0 {
		t.Fatalf("%d records in before the audit service was released", n)
	}
	close(a.hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := a.recorded(); len(got) != 2 {
		t.Errorf("Shutdown returned with %d of 2 records in: %v", len(got), got)
	}
}

// TestShutdownCutsAtDeadline: the audit service never answers; at the
// shutdown deadline the running record is cancelled and the queued one
// dropped, and Shutdown says so.
func TestShutdownCutsAtDeadline(t *testing.T) {
	a, ts, d := setup(t, 1, 4)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Shutdown(ctx, ts.Config, d) }()
	closing(t, d)
	cancel() // the deadline passes
	err := <-done
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "1 running cancelled, 1 queued dropped") {
		t.Fatalf("Shutdown: %v; want the cut reported (1 running, 1 queued)", err)
	}
	d.wg.Wait() // the cancelled record returns, and the queued one is skipped
	// The audit service sees the cancelled request end on its own
	// schedule: release it only once its handler has returned, or the
	// release could win the race and record what the cut cancelled.
	select {
	case <-a.left:
	case <-time.After(30 * time.Second): // a hang guard, not a measurement
		t.Fatal("the audit service never saw the cut record's request end")
	}
	close(a.hold)
	if got := a.recorded(); len(got) != 0 {
		t.Errorf("records made after the cut: %v", got)
	}
}
