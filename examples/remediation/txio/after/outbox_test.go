package after

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/syncio/syncio/examples/txlab/latencydb"
)

// paymentService charges once per idempotency key: a repeated key is
// answered with the first charge's result. A request without a key is
// charged every time, as an API without idempotency would. fail, when
// set, answers 500 instead (before charging); hang holds every request
// until its context ends.
type paymentService struct {
	mu       sync.Mutex
	requests int
	charged  map[string]int // order id → charges made
	seen     map[string]bool
	fail     func() bool
	refuse   bool // answer 402
	hang     bool
}

func newPaymentService() *paymentService {
	return &paymentService{charged: map[string]int{}, seen: map[string]bool{}}
}

func (p *paymentService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.hang {
		<-r.Context().Done()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	if p.refuse {
		w.WriteHeader(http.StatusPaymentRequired)
		return
	}
	if p.fail != nil && p.fail() {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	key := r.Header.Get("Idempotency-Key")
	if key != "" && p.seen[key] {
		return // 200: the earlier charge's result
	}
	p.seen[key] = key != ""
	p.charged[r.URL.Query().Get("order")]++
}

func (p *paymentService) counts(order string) (requests, charges int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.requests, p.charged[order]
}

// clock is a fake clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var errCrash = errors.New("the worker died before its commit")

// crashingStore is a Store whose Done fails without writing, as if the
// process died after the charge and before the transaction that records
// it committed; crash decides which Done calls die.
type crashingStore struct {
	Store
	crash func() bool
}

func (s crashingStore) Done(ctx context.Context, c Claim) error {
	if s.crash() {
		return errCrash
	}
	return s.Store.Done(ctx, c)
}

func newWorker(store Store, pay Charger) *Worker {
	return &Worker{
		Store: store, Payments: pay,
		CallTimeout: 10 * time.Second, MaxAttempts: 4,
		BaseBackoff: time.Second, MaxBackoff: 3 * time.Second, Poll: time.Millisecond,
		Log:    slog.New(slog.DiscardHandler),
		jitter: func(limit time.Duration) time.Duration { return limit }, // the top of the range, so the test can read it
	}
}

// noKey is a client of the payment service that sends no idempotency key.
type noKey struct{ Payments }

func (p noKey) Charge(ctx context.Context, orderID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL+"/charge?order="+url.QueryEscape(orderID), nil)
	if err != nil {
		return err
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// TestOutboxCrashBetweenChargeAndCommit: a worker charges order 42 and
// dies before the commit that marks it; a new worker cannot claim the row
// while the lease lasts, claims it once it has run out, and charges again
// with the same key. The payment service gets two requests and charges
// once; without the key it charges twice.
func TestOutboxCrashBetweenChargeAndCommit(t *testing.T) {
	for _, withKey := range []bool{true, false} {
		t.Run(fmt.Sprintf("key=%v", withKey), func(t *testing.T) {
			pay := newPaymentService()
			srv := httptest.NewServer(pay)
			defer srv.Close()
			var charger Charger = &Payments{Client: srv.Client(), URL: srv.URL}
			if !withKey {
				charger = noKey{Payments{Client: srv.Client(), URL: srv.URL}}
			}
			clk := &clock{now: time.Unix(0, 0)}
			store := NewMemStore(clk.Now)
			store.Add("42")

			dying := newWorker(crashingStore{store, func() bool { return true }}, charger)
			if _, err := dying.Step(t.Context()); !errors.Is(err, errCrash) {
				t.Fatalf("first worker: %v, want the injected crash", err)
			}
			next := newWorker(store, charger)
			if worked, err := next.Step(t.Context()); worked || err != nil {
				t.Fatalf("the row was claimed again while its lease lasted (%v, %v)", worked, err)
			}
			clk.Add(next.lease())
			if worked, err := next.Step(t.Context()); !worked || err != nil {
				t.Fatalf("second worker: %v, %v; want the row charged", worked, err)
			}

			requests, charges := pay.counts("42")
			state, attempts, _ := store.Row(1)
			if requests != 2 || state != "sent" || attempts != 2 || store.Status("42") != "paid" {
				t.Errorf("requests %d, row %s after %d attempts, order %s; want 2 requests, sent after 2, paid",
					requests, state, attempts, store.Status("42"))
			}
			if want := map[bool]int{true: 1, false: 2}[withKey]; charges != want {
				t.Errorf("order 42 charged %d times, want %d", charges, want)
			}
		})
	}
}

// TestOutboxFailingChargeGoesDead: a charge that always fails is tried
// MaxAttempts times, each after a longer pause (1 s, 2 s, then the 3 s
// cap), then the row is dead and the order payment_failed; nothing claims
// it again.
func TestOutboxFailingChargeGoesDead(t *testing.T) {
	pay := newPaymentService()
	pay.fail = func() bool { return true }
	srv := httptest.NewServer(pay)
	defer srv.Close()
	clk := &clock{now: time.Unix(0, 0)}
	store := NewMemStore(clk.Now)
	store.Add("7")
	w := newWorker(store, &Payments{Client: srv.Client(), URL: srv.URL})

	var pauses []time.Duration
	for range w.MaxAttempts {
		if worked, err := w.Step(t.Context()); !worked || err != nil {
			t.Fatalf("step: %v, %v", worked, err)
		}
		state, _, next := store.Row(1)
		if state == "dead" {
			break
		}
		pauses = append(pauses, next.Sub(clk.Now()))
		clk.Add(next.Sub(clk.Now()))
	}
	state, attempts, _ := store.Row(1)
	requests, charges := pay.counts("7")
	if state != "dead" || attempts != 4 || requests != 4 || charges != 0 || store.Status("7") != "payment_failed" {
		t.Errorf("row %s after %d attempts, %d requests, %d charges, order %s; want dead after 4, 4 requests, 0 charges, payment_failed",
			state, attempts, requests, charges, store.Status("7"))
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}; fmt.Sprint(pauses) != fmt.Sprint(want) {
		t.Errorf("pauses %v, want %v", pauses, want)
	}
	clk.Add(time.Hour)
	if worked, _ := w.Step(t.Context()); worked {
		t.Error("a dead row was claimed again")
	}
}

// TestOutboxHungPaymentServiceCostsOneDeadline: a payment service that
// never answers holds the worker for CallTimeout, not for ever: the step
// returns, the row waits for its backoff, and the next order is charged.
func TestOutboxHungPaymentServiceCostsOneDeadline(t *testing.T) {
	hung := newPaymentService()
	hung.hang = true
	srv := httptest.NewServer(hung)
	defer srv.Close()
	clk := &clock{now: time.Unix(0, 0)}
	store := NewMemStore(clk.Now)
	store.Add("1")
	w := newWorker(store, &Payments{Client: srv.Client(), URL: srv.URL})
	w.CallTimeout = 20 * time.Millisecond
	if worked, err := w.Step(t.Context()); !worked || err != nil {
		t.Fatalf("step: %v, %v", worked, err)
	}
	state, attempts, next := store.Row(1)
	if state != "pending" || attempts != 1 || next.Sub(clk.Now()) != w.BaseBackoff {
		t.Errorf("row %s, %d attempts, due in %v; want pending, 1, due in %v (the backoff, not the lease)",
			state, attempts, next.Sub(clk.Now()), w.BaseBackoff)
	}
}

// TestOutboxConcurrentWorkersLoseNothingChargeOnce: four workers, 40
// orders, a payment service that fails 30% of requests, and a worker
// dying before its commit on every fifth success. The clock moves a
// second at each read, so leases run out while their workers still run
// and rows are claimed twice at once. Every order ends paid and charged
// exactly once.
func TestOutboxConcurrentWorkersLoseNothingChargeOnce(t *testing.T) {
	const orders = 40
	pay := newPaymentService()
	pay.fail = func() bool { return rand.N(10) < 3 }
	srv := httptest.NewServer(pay)
	defer srv.Close()
	var ticks atomic.Int64
	store := NewMemStore(func() time.Time { return time.Unix(ticks.Add(1), 0) })
	for i := range orders {
		store.Add(fmt.Sprint(i))
	}
	var dones atomic.Int64
	crash := crashingStore{store, func() bool { return dones.Add(1)%5 == 0 }}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for range 4 {
		w := newWorker(crash, &Payments{Client: srv.Client(), URL: srv.URL})
		w.MaxAttempts = 1000 // nothing dies here: this test is about loss and duplicates
		wg.Go(func() { w.Run(ctx) })
	}
	guard := time.After(30 * time.Second) // a hang guard, not a measurement
	for paid := 0; paid < orders; {
		select {
		case <-guard:
			t.Fatalf("%d of %d orders paid", paid, orders)
		case <-time.After(time.Millisecond):
		}
		paid = 0
		for i := range orders {
			if store.Status(fmt.Sprint(i)) == "paid" {
				paid++
			}
		}
	}
	cancel()
	wg.Wait()
	for i := range orders {
		if _, charges := pay.counts(fmt.Sprint(i)); charges != 1 {
			t.Errorf("order %d charged %d times, want 1", i, charges)
		}
	}
	requests, _ := pay.counts("")
	t.Logf("%d orders, %d payment requests, %d commits attempted (every fifth died)", orders, requests, dones.Load())
}

// TestPayWritesTheOutbox: the handler answers 202 with the order's
// Location, and the status route says charging, through database/sql
// (the model driver of examples/txlab).
func TestPayWritesTheOutbox(t *testing.T) {
	conn := latencydb.New(0)
	db := sql.OpenDB(conn)
	defer db.Close()
	o := &Orders{DB: db}
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
	if conn.Pending() != 1 {
		t.Errorf("outbox holds %d rows, want 1", conn.Pending())
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

// TestMemStoreClaimOrder: claims take the oldest due row, pass over
// leased and backed-off rows, and come back to them when due.
func TestMemStoreClaimOrder(t *testing.T) {
	clk := &clock{now: time.Unix(0, 0)}
	m := NewMemStore(clk.Now)
	for _, id := range []string{"a", "b", "c"} {
		m.Add(id)
	}
	claim := func() string {
		c, ok, _ := m.Claim(t.Context(), time.Minute)
		if !ok {
			return "-"
		}
		return c.OrderID
	}
	first, _, _ := m.Claim(t.Context(), time.Minute) // a, leased
	if got := claim() + claim() + claim(); got != "bc-" {
		t.Fatalf("claims %q, want b, c, then nothing due", got)
	}
	_ = m.Retry(t.Context(), first, time.Second, "503") // a due in 1 s, not at the end of its lease
	clk.Add(time.Second)
	if got := claim(); got != "a" {
		t.Errorf("claim after a's backoff: %q, want a", got)
	}
}

// TestOutboxRefusedChargeGoesDeadAtOnce: a 402 is not retried: one
// request, and the row is dead after its first attempt.
func TestOutboxRefusedChargeGoesDeadAtOnce(t *testing.T) {
	pay := newPaymentService()
	pay.refuse = true
	srv := httptest.NewServer(pay)
	defer srv.Close()
	store := NewMemStore((&clock{now: time.Unix(0, 0)}).Now)
	store.Add("9")
	w := newWorker(store, &Payments{Client: srv.Client(), URL: srv.URL})
	if worked, err := w.Step(t.Context()); !worked || err != nil {
		t.Fatalf("step: %v, %v", worked, err)
	}
	state, attempts, _ := store.Row(1)
	if requests, _ := pay.counts("9"); state != "dead" || attempts != 1 || requests != 1 || store.Status("9") != "payment_failed" {
		t.Errorf("row %s after %d attempts, %d requests, order %s; want dead after 1, 1 request, payment_failed",
			state, attempts, requests, store.Status("9"))
	}
}
