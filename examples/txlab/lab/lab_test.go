package lab_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/examples/txlab/lab"
)

// start runs a lab whose payment service waits until hold is closed.
func start(t *testing.T, conns int, hold chan struct{}) (*lab.Lab, *httptest.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l, err := lab.Start(ctx, lab.Config{Conns: conns, RTT: time.Millisecond, Hold: hold})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	t.Cleanup(func() { srv.Close(); cancel(); l.Close() })
	return l, srv
}

// pay posts n orders to prefix concurrently and returns their status codes.
func pay(t *testing.T, srv *httptest.Server, prefix string, n int) <-chan int {
	t.Helper()
	codes := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			resp, err := srv.Client().Post(fmt.Sprintf("%s%s/pay/%d", srv.URL, prefix, i), "", nil)
			if err != nil {
				t.Error(err)
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	go func() { wg.Wait(); close(codes) }()
	return codes
}

// eventually polls cond until it holds; the bound only keeps a broken
// build from hanging, it measures nothing.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestBeforeDrainsThePool: while the payment service is slow, every
// connection of the before service's pool is held by a transaction waiting
// on it, and further orders queue for a connection.
func TestBeforeDrainsThePool(t *testing.T) {
	hold := make(chan struct{})
	l, srv := start(t, 4, hold)
	codes := pay(t, srv, "/before", 6)
	eventually(t, "4 connections in use and a request waiting for one", func() bool {
		s := l.BeforeDB.Stats()
		return s.InUse == 4 && s.WaitCount >= 1
	})
	close(hold)
	for c := range codes {
		if c != http.StatusNoContent {
			t.Errorf("before pay: status %d, want 204", c)
		}
	}
	if got := l.Charges.Load(); got != 6 {
		t.Errorf("charges = %d, want 6", got)
	}
}

// TestAfterHoldsNoConnectionAcrossTheCall: with the payment service stuck,
// the after service still answers every order and holds no connection; the
// outbox worker charges them once the service answers.
func TestAfterHoldsNoConnectionAcrossTheCall(t *testing.T) {
	hold := make(chan struct{})
	l, srv := start(t, 4, hold)
	for c := range pay(t, srv, "/after", 6) {
		if c != http.StatusAccepted {
			t.Errorf("after pay: status %d, want 202", c)
		}
	}
	if s := l.AfterDB.Stats(); s.InUse != 0 {
		t.Errorf("after answering every order, %d connections are in use, want 0", s.InUse)
	}
	if got := l.Outbox.Pending(); got != 6 {
		t.Errorf("outbox holds %d orders, want 6", got)
	}
	close(hold)
	eventually(t, "the outbox worker to charge all 6 orders", func() bool {
		return l.Outbox.Pending() == 0 && l.Charges.Load() == 6
	})
}

// TestMetrics: the pools' sql.DBStats and the outbox backlog are exported
// under the names docs/remediation.md reads.
func TestMetrics(t *testing.T) {
	_, srv := start(t, 2, nil)
	resp, err := srv.Client().Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`go_sql_wait_count_total{db_name="before"}`,
		`go_sql_wait_duration_seconds_total{db_name="after"}`,
		`go_sql_max_open_connections{db_name="before"} 2`,
		"txlab_outbox_pending 0",
		"txlab_charges_total 0",
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
