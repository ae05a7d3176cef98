package api

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/activity/temporal/temporaltest"
	"github.com/syncio/syncio/api/pool"
)

// startOnTemporal starts a dev server and the API on it, with the profile
// service behind a gate and orders answered 202 after wait; adjust may
// change the rest of the configuration.
func startOnTemporal(t *testing.T, wait time.Duration, adjust func(*Config)) (*Server, *gate) {
	t.Helper()
	ts := temporaltest.Start(t)
	g, profileURL := newGate(t)
	cfg := testConfig()
	cfg.ProfileURL = profileURL
	cfg.Temporal, cfg.TemporalWait = ts.HostPort, wait
	if adjust != nil {
		adjust(&cfg)
	}
	return startServer(t, cfg), g
}

// TestTemporalOrder serves POST /api/async/order through a real Temporal
// dev server: orders hold no pool worker while they run, answer 201 with
// the receipt, or 202 with a status URL that later reports the result.
func TestTemporalOrder(t *testing.T) {
	const n = 4
	// A generous wait: every order must answer 201, however slow the
	// machine (-race, a shared CI host) is after the gate opens.
	s, g := startOnTemporal(t, 30*time.Second, func(cfg *Config) { cfg.Workers, cfg.Queue = 1, 2*n })

	results := make(chan response, n)
	for i := 0; i < n; i++ {
		go func() {
			r, err := postOrder(context.Background(), s, "async", orderBody(fmt.Sprintf("tmp-%d", i)))
			if err != nil {
				r.status = -1
			}
			results <- r
		}()
	}
	// Every order's profile activity is in flight, and no request holds
	// the one worker: they wait on Temporal, not on the pool.
	g.waitArrivals(t, n)
	waitPool(t, s, "every worker free while the orders run", func(st pool.Stats) bool {
		return st.Busy == 0 && st.Queued == 0
	})
	g.open()
	for i := 0; i < n; i++ {
		r := <-results
		if r.status != http.StatusCreated {
			t.Fatalf("order: %d %s", r.status, r.body)
		}
		var conf order.Confirmation
		if err := json.Unmarshal(r.body, &conf); err != nil {
			t.Fatal(err)
		}
		data, err := readBlob(t, s, conf.Receipt.Name)
		sum := md5.Sum(data)
		if err != nil || conf.Receipt.MD5 != hex.EncodeToString(sum[:]) || conf.Status != "confirmed" || conf.Customer != "Alton Hudgens" {
			t.Errorf("confirmation %+v, blob md5 %x, %v", conf, sum, err)
		}
	}
}

// TestTemporalOrderAccepted: an order still running after TemporalWait is
// answered 202 with a status URL, which reports running, then completed.
func TestTemporalOrderAccepted(t *testing.T) {
	s, g := startOnTemporal(t, 200*time.Millisecond, nil)

	r, err := postOrder(context.Background(), s, "async", orderBody("slow-1"))
	if err != nil || r.status != http.StatusAccepted {
		t.Fatalf("slow order: %d %s %v, want 202", r.status, r.body, err)
	}
	var acc struct{ ID, Status, StatusURL string }
	if err := json.Unmarshal(r.body, &acc); err != nil || acc.Status != "running" || acc.StatusURL != "/api/orders/"+acc.ID || r.header.Get("Location") != acc.StatusURL {
		t.Fatalf("202 body %s (%v), Location %q", r.body, err, r.header.Get("Location"))
	}
	st := get(t, s.URL()+acc.StatusURL)
	if st.status != http.StatusOK || !strings.Contains(string(st.body), `"status":"running"`) {
		t.Fatalf("status while running: %d %s", st.status, st.body)
	}
	g.open()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st = get(t, s.URL()+acc.StatusURL)
		var body struct {
			Status       string
			Confirmation order.Confirmation
		}
		if err := json.Unmarshal(st.body, &body); err != nil {
			t.Fatalf("status body %s: %v", st.body, err)
		}
		if body.Status == "completed" {
			if body.Confirmation.OrderID != "slow-1" || !strings.HasPrefix(body.Confirmation.Receipt.Name, "receipts/slow-1/") {
				t.Errorf("completed status %s", st.body)
			}
			break
		}
		if body.Status != "running" || time.Now().After(deadline) {
			t.Fatalf("status %d %s", st.status, st.body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, bad := range []string{"/api/orders/nope", "/api/orders/order-slow-2"} {
		r := get(t, s.URL()+bad)
		if r.status != http.StatusNotFound || documentedError(t, r) != codeNoSuchOrder {
			t.Errorf("GET %s: %d %s, want 404 %s", bad, r.status, r.body, codeNoSuchOrder)
		}
	}
}

// TestStatusWithoutTemporal: the status route explains itself.
func TestStatusWithoutTemporal(t *testing.T) {
	s := startServer(t, testConfig())
	r := get(t, s.URL()+"/api/orders/order-x-0000000000000000")
	if r.status != http.StatusNotFound || !strings.Contains(r.errorBody(t).Error, "-temporal") {
		t.Errorf("%d %s", r.status, r.body)
	}
}

// TestTemporalUnreachable: a wrong -temporal stops start-up with an error
// that names it.
func TestTemporalUnreachable(t *testing.T) {
	ln := listenLoopback(t)
	addr := ln.Addr().String()
	_ = ln.Close() // a port with nothing behind it
	cfg := testConfig()
	cfg.Temporal = addr
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := Start(ctx, cfg, testLogger(t))
	if err == nil {
		_ = s.Shutdown(context.Background())
		t.Fatal("Start succeeded with no Temporal server")
	}
	if !strings.Contains(err.Error(), "temporal at "+addr) {
		t.Errorf("error %q does not name the address", err)
	}
}

// TestTemporalSameOrderIDPairsLoseNoReceipt is the in-process probe on
// Temporal: 40 pairs of concurrent orders with the same ID while the
// profile fails most attempts (Temporal retries each activity 5 times, so
// 0.87 per attempt fails about half the orders). The workflow ID is the
// order ID: a pair shares one run and answers the same, no confirmed
// receipt goes missing, a confirmed order's repeat answers the same
// confirmation and another body is 409. Before, the two orders of a pair
// were two workflows writing one receipt name, and 7 of 7 mixed pairs lost
// the confirmed receipt.
func TestTemporalSameOrderIDPairsLoseNoReceipt(t *testing.T) {
	const pairs = 40
	ts := temporaltest.Start(t)
	cfg := testConfig()
	cfg.Workers, cfg.Queue = 8, 4*pairs
	cfg.ProfileErrorRate = 0.87
	cfg.Temporal, cfg.TemporalWait = ts.HostPort, 2*time.Minute
	cfg.UpstreamTimeout = 2 * time.Minute
	s := startServer(t, cfg)

	got := make([][2]response, pairs)
	var wg sync.WaitGroup
	for i := range pairs {
		for j := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := postOrder(context.Background(), s, "async", orderBody(fmt.Sprintf("tdup-%d", i)))
				if err != nil {
					r.status = -1
				}
				got[i][j] = r
			}()
		}
	}
	wg.Wait()
	confirmed, failed := 0, 0
	for i, p := range got {
		for _, r := range p {
			switch r.status {
			case http.StatusCreated:
				confirmed++
				checkReceipt(t, s, r.body)
			case http.StatusBadGateway:
				failed++
				if documentedError(t, r) != codeOrderFailed {
					t.Errorf("tdup-%d: %s", i, r.body)
				}
			default:
				t.Errorf("tdup-%d: %d %s", i, r.status, r.body)
			}
		}
		if p[0].status == http.StatusCreated && p[1].status == http.StatusCreated && !bytes.Equal(p[0].body, p[1].body) {
			t.Errorf("tdup-%d: two confirmations for one order: %s / %s", i, p[0].body, p[1].body)
		}
	}
	if confirmed == 0 || failed == 0 {
		t.Fatalf("%d confirmed and %d failed orders: the probe needs both", confirmed, failed)
	}
	for i, p := range got {
		first := p[0]
		if first.status != http.StatusCreated {
			first = p[1]
		}
		if first.status != http.StatusCreated {
			continue
		}
		id := fmt.Sprintf("tdup-%d", i)
		r, err := postOrder(context.Background(), s, "async", orderBody(id))
		if err != nil || r.status != http.StatusCreated || !bytes.Equal(r.body, first.body) {
			t.Errorf("%s: repeat of a confirmed order: %d %s %v, want the same 201 %s", id, r.status, r.body, err, first.body)
		}
		other := strings.Replace(orderBody(id), `"quantity":3`, `"quantity":4`, 1)
		r, err = postOrder(context.Background(), s, "async", other)
		if err != nil || r.status != http.StatusConflict || documentedError(t, r) != codeOrderConflict {
			t.Errorf("%s with another body: %d %s %v, want 409 %s", id, r.status, r.body, err, codeOrderConflict)
		}
		checkReceipt(t, s, first.body)
	}
}

// TestTemporalOrderAnswerIsTheRecord: the order's record in storage is its
// answer on the Temporal route as on the in-process ones. An order
// confirmed on Temporal is answered the same by the in-process route, and
// one confirmed in-process the same by the Temporal route, each running
// nothing new; after the API restarts on a fresh Temporal server (which
// has forgotten every workflow) over the same storage, both are answered
// the same again, and another body under either ID is 409. Before, each
// runtime kept its own ledger (Temporal's workflow IDs, the process's
// map): the other route, or a fresh Temporal, ran the order a second time
// under a second receipt.
func TestTemporalOrderAnswerIsTheRecord(t *testing.T) {
	cfg := testConfig()
	cfg.StoragePath = filepath.Join(t.TempDir(), "blobs")
	cfg.TemporalWait = 30 * time.Second
	ts := temporaltest.Start(t)
	cfg.Temporal = ts.HostPort
	s, err := Start(context.Background(), cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	// id → the route that confirms it first, and then the other route.
	first := map[string]response{}
	for id, routes := range map[string][2]string{"TR-temporal": {"async", "sync"}, "TR-inproc": {"sync", "async"}} {
		r, err := postOrder(context.Background(), s, routes[0], orderBody(id))
		if err != nil || r.status != http.StatusCreated {
			t.Fatalf("%s on the %s route: %d %s %v", id, routes[0], r.status, r.body, err)
		}
		first[id] = r
		r, err = postOrder(context.Background(), s, routes[1], orderBody(id))
		if err != nil || r.status != http.StatusCreated || !bytes.Equal(r.body, first[id].body) {
			t.Errorf("%s on the %s route, confirmed on the %s one: %d %s %v, want the same 201 %s",
				id, routes[1], routes[0], r.status, r.body, err, first[id].body)
		}
	}
	stopServer(t, s)
	if err := ts.Stop(); err != nil {
		t.Fatal(err)
	}

	cfg.Temporal = temporaltest.Start(t).HostPort // empty: every workflow forgotten
	again := startServer(t, cfg)
	for id, answer := range first {
		for _, route := range []string{"async", "sync"} {
			r, err := postOrder(context.Background(), again, route, orderBody(id))
			if err != nil || r.status != http.StatusCreated || !bytes.Equal(r.body, answer.body) {
				t.Errorf("%s on the %s route after a restart on a fresh Temporal: %d %s %v, want the first answer 201 %s",
					id, route, r.status, r.body, err, answer.body)
			}
		}
		other := strings.Replace(orderBody(id), `"quantity":3`, `"quantity":4`, 1)
		r, err := postOrder(context.Background(), again, "async", other)
		if err != nil || r.status != http.StatusConflict || documentedError(t, r) != codeOrderConflict {
			t.Errorf("%s with another body on Temporal: %d %s %v, want 409 %s", id, r.status, r.body, err, codeOrderConflict)
		}
		checkReceipt(t, again, answer.body)
	}
	if n := ordersStarted(t, again); n != 0 {
		t.Errorf("the restarted server ran %v in-process orders for repeats, want none", n)
	}
}
