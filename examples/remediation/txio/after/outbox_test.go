package after

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/syncio/syncio/examples/txlab/latencydb"
)

// paymentService charges once per idempotency key: a repeated key is
// answered with the first charge's result. A request without a key is
// charged every time, as an API without idempotency would.
type paymentService struct {
	mu       sync.Mutex
	requests int
	charged  map[string]int // order id → charges made
	seen     map[string]bool
}

func (p *paymentService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	key := r.Header.Get("Idempotency-Key")
	if key != "" && p.seen[key] {
		return // 200: the earlier charge's result
	}
	p.seen[key] = key != ""
	p.charged[r.URL.Query().Get("order")]++
}

// crashAfter is a transport that, once the payment service has answered
// the first charge, cancels the worker's context: the worker dies after
// the charge and before it marks the order.
type crashAfter struct {
	once  sync.Once
	crash context.CancelFunc
}

func (c *crashAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		c.once.Do(c.crash)
	}
	return resp, err
}

// TestOutboxCrashBetweenChargeAndMark: an order paid, a worker killed
// between the charge and the mark, a new worker: the payment service gets
// the charge twice (at least once delivery) and charges once (the key),
// and the status route tells the client "charging", then "paid".
func TestOutboxCrashBetweenChargeAndMark(t *testing.T) {
	pay := &paymentService{charged: map[string]int{}, seen: map[string]bool{}}
	srv := httptest.NewServer(pay)
	defer srv.Close()
	db := sql.OpenDB(latencydb.New(0))
	defer db.Close()
	firstRun, crash := context.WithCancel(context.Background())
	defer crash()
	o := &Orders{DB: db, Payments: &Payments{Client: &http.Client{Transport: &crashAfter{crash: crash}}, URL: srv.URL}}

	mux := http.NewServeMux()
	mux.HandleFunc("POST /orders/{id}/pay", o.Pay)
	mux.HandleFunc("GET /orders/{id}", o.Status)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/orders/42/pay", nil))
	if rec.Code != http.StatusAccepted || rec.Header().Get("Location") != "/orders/42" {
		t.Fatalf("pay: %d, Location %q; want 202 and /orders/42", rec.Code, rec.Header().Get("Location"))
	}
	if got := status(t, mux, "/orders/42"); got != "charging" {
		t.Errorf("status after 202: %q, want charging", got)
	}

	if o.chargeNext(firstRun) {
		t.Fatal("the killed worker marked the order")
	}
	restarted := context.Background()
	for o.chargeNext(restarted) {
	}

	pay.mu.Lock()
	requests, charges := pay.requests, pay.charged["42"]
	pay.mu.Unlock()
	if requests != 2 {
		t.Errorf("the payment service got %d requests, want 2 (the charge, and the repeat after the crash)", requests)
	}
	if charges != 1 {
		t.Errorf("order 42 charged %d times, want exactly 1", charges)
	}
	if got := status(t, mux, "/orders/42"); got != "paid" {
		t.Errorf("status after the worker: %q, want paid", got)
	}
	if rec := get(mux, "/orders/7"); rec.Code != http.StatusNotFound || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("unknown order: %d %q, want a JSON 404", rec.Code, rec.Header().Get("Content-Type"))
	}
}

func get(h http.Handler, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

func status(t *testing.T, h http.Handler, path string) string {
	t.Helper()
	rec := get(h, path)
	var body struct{ Status string }
	if err := json.NewDecoder(rec.Body).Decode(&body); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, rec.Code, err)
	}
	return body.Status
}
