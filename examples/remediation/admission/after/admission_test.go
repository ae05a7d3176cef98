package after

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// rig serves a handler that holds each request until released, behind an
// Admission of two requests and 1000 body bytes.
type rig struct {
	a       *Admission
	srv     *httptest.Server
	entered chan struct{}
	release chan struct{}
}

func newRig(t *testing.T) *rig {
	t.Helper()
	g := &rig{entered: make(chan struct{}, 8), release: make(chan struct{})}
	g.a = &Admission{MaxInFlight: 2, MaxBodyBytes: 1000, UnknownBody: 400, RetryAfter: 2 * time.Second,
		Rejected: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rejected_total", Help: "Refused."}, []string{"reason"})}
	g.srv = httptest.NewServer(g.a.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		g.entered <- struct{}{}
		<-g.release
	})))
	t.Cleanup(g.srv.Close)
	return g
}

type answer struct {
	status     int
	retryAfter string
	ctype      string
	code       string
}

func (g *rig) post(t *testing.T, body io.Reader, size int64) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, g.srv.URL, body)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = size
	resp, err := g.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b struct{ Code string }
	_ = json.NewDecoder(resp.Body).Decode(&b)
	return answer{resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"), b.Code}
}

// async posts in a goroutine and waits until the handler holds it.
func (g *rig) hold(t *testing.T, size int) chan answer {
	t.Helper()
	out := make(chan answer, 1)
	go func() { out <- g.post(t, strings.NewReader(strings.Repeat("x", size)), int64(size)) }()
	<-g.entered
	return out
}

func rejected(t *testing.T, a *Admission, reason string) float64 {
	t.Helper()
	var m dto.Metric
	if err := a.Rejected.WithLabelValues(reason).Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetCounter().GetValue()
}

var busy = answer{http.StatusServiceUnavailable, "2", "application/json", "overloaded"}

// TestAdmissionInFlightCap: two requests held, the third is answered at
// once with 503, Retry-After and a JSON body; once one ends, a new one is
// admitted.
func TestAdmissionInFlightCap(t *testing.T) {
	g := newRig(t)
	first, second := g.hold(t, 10), g.hold(t, 10)
	if got := g.post(t, strings.NewReader("x"), 1); got != busy {
		t.Errorf("third request: %+v, want %+v", got, busy)
	}
	g.release <- struct{}{}
	if got := <-first; got.status != http.StatusOK {
		t.Fatalf("first request: %+v", got)
	}
	third := g.hold(t, 10) // admitted: it reached the handler
	close(g.release)
	<-second
	<-third
	if n := rejected(t, g.a, "in_flight"); n != 1 {
		t.Errorf("in_flight rejections: %v, want 1", n)
	}
}

// TestAdmissionBodyBytes: a 600-byte request held, a second 600-byte one
// would pass 1000 bytes and is refused 503; a body larger than the whole
// bound is 413; a chunked body is charged UnknownBody (400) and admitted
// next to the 600.
func TestAdmissionBodyBytes(t *testing.T) {
	g := newRig(t)
	held := g.hold(t, 600)
	if got := g.post(t, strings.NewReader(strings.Repeat("x", 600)), 600); got != busy {
		t.Errorf("second 600-byte request: %+v, want %+v", got, busy)
	}
	if got := g.post(t, strings.NewReader(strings.Repeat("x", 2000)), 2000); got.status != http.StatusRequestEntityTooLarge || got.code != "too_large" {
		t.Errorf("2000-byte request: %+v, want 413 too_large", got)
	}
	chunked := make(chan answer, 1)
	go func() { chunked <- g.post(t, io.MultiReader(strings.NewReader("abc")), -1) }()
	<-g.entered
	close(g.release)
	if got := <-chunked; got.status != http.StatusOK {
		t.Errorf("chunked request: %+v, want 200", got)
	}
	<-held
	if n := rejected(t, g.a, "body_bytes"); n != 1 {
		t.Errorf("body_bytes rejections: %v, want 1", n)
	}
}
