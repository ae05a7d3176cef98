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
)

// checkReceipt fails unless the receipt a 201 named is in storage with the
// size and MD5 the client was given.
func checkReceipt(t *testing.T, s *Server, body []byte) {
	t.Helper()
	var conf order.Confirmation
	if err := json.Unmarshal(body, &conf); err != nil {
		t.Fatalf("201 body %s: %v", body, err)
	}
	data, err := readBlob(t, s, conf.Receipt.Name)
	if err != nil {
		t.Errorf("confirmed order %s: receipt %s lost: %v", conf.OrderID, conf.Receipt.Name, err)
		return
	}
	sum := md5.Sum(data)
	if conf.Receipt.MD5 != hex.EncodeToString(sum[:]) || conf.Receipt.Size != int64(len(data)) {
		t.Errorf("confirmed order %s: receipt %+v, stored %d bytes md5 %x", conf.OrderID, conf.Receipt, len(data), sum)
	}
}

// TestSameOrderIDPairsLoseNoReceipt is the probe: 40 pairs of
// concurrent orders with the same ID, the profile failing half the time.
// Each pair must answer the same (one run, shared), no confirmed receipt
// may be missing afterwards, a repeat of a confirmed order answers the same
// confirmation without a new run, and a repeat with another body is 409.
// Before receipts were named by the run, every mixed 201/502 pair lost the
// confirmed receipt to the failed order's compensation.
func TestSameOrderIDPairsLoseNoReceipt(t *testing.T) {
	const pairs = 40
	cfg := testConfig()
	cfg.Workers, cfg.Queue = 8, 4*pairs
	cfg.ProfileErrorRate = 0.5
	s := startServer(t, cfg)

	type pair struct{ a, b response }
	got := make([]pair, pairs)
	var wg sync.WaitGroup
	for i := range pairs {
		id := fmt.Sprintf("dup-%d", i)
		// One of each pair on each route for half the IDs: the ledger is
		// shared, as the order is the same whichever route took it.
		kindA, kindB := "async", "async"
		if i%2 == 1 {
			kindB = "sync"
		}
		for j, kind := range []string{kindA, kindB} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := postOrder(context.Background(), s, kind, orderBody(id))
				if err != nil {
					r.status = -1
				}
				if j == 0 {
					got[i].a = r
				} else {
					got[i].b = r
				}
			}()
		}
	}
	wg.Wait()

	confirmed, failed := 0, 0
	for i, p := range got {
		for _, r := range []response{p.a, p.b} {
			switch r.status {
			case http.StatusCreated:
				checkReceipt(t, s, r.body)
			case http.StatusBadGateway:
				if documentedError(t, r) != codeUpstreamError {
					t.Errorf("dup-%d: 502 %s", i, r.body)
				}
			default:
				t.Errorf("dup-%d: %d %s", i, r.status, r.body)
			}
		}
		// Both confirmed: one run, one receipt. (A 502 and a 201 are
		// allowed: the failed run ended before the other request came, which
		// then was a retry and ran anew.)
		if p.a.status == http.StatusCreated && p.b.status == http.StatusCreated && !bytes.Equal(p.a.body, p.b.body) {
			t.Errorf("dup-%d: two confirmations for one order: %s / %s", i, p.a.body, p.b.body)
		}
		for _, r := range []response{p.a, p.b} {
			if r.status == http.StatusCreated {
				confirmed++
			} else {
				failed++
			}
		}
	}
	if confirmed == 0 || failed == 0 {
		t.Fatalf("%d confirmed and %d failed orders: the probe needs both", confirmed, failed)
	}
	// A request either shared a running order's result or ran its own
	// after a failure: at most one run per ID plus one per failure.
	started := metricValue(t, s, `syncio_workflows_started_total{workflow="order-async"}`) +
		metricValue(t, s, `syncio_workflows_started_total{workflow="order-sync"}`)
	if started > float64(pairs+failed) {
		t.Errorf("%v order runs for %d IDs and %d failures: duplicates ran again instead of sharing the first run", started, pairs, failed)
	}

	// Retries: a confirmed order answers its confirmation again and runs
	// nothing; a failed one runs again under a new run key; another body
	// for a known ID is a conflict.
	for i, p := range got {
		id := fmt.Sprintf("dup-%d", i)
		r, err := postOrder(context.Background(), s, "async", orderBody(id))
		if err != nil {
			t.Fatal(err)
		}
		first := p.a
		if first.status != http.StatusCreated {
			first = p.b
		}
		if first.status == http.StatusCreated && (r.status != http.StatusCreated || !bytes.Equal(r.body, first.body)) {
			t.Errorf("%s: retry of a confirmed order: %d %s, want the same 201 %s", id, r.status, r.body, first.body)
		}
		if r.status == http.StatusCreated {
			checkReceipt(t, s, r.body)
		}
		if first.status != http.StatusCreated {
			continue
		}
		other := strings.Replace(orderBody(id), `"quantity":3`, `"quantity":4`, 1)
		r, err = postOrder(context.Background(), s, "sync", other)
		if err != nil || r.status != http.StatusConflict || documentedError(t, r) != codeOrderConflict {
			t.Errorf("%s with another body: %d %s %v, want 409 %s", id, r.status, r.body, err, codeOrderConflict)
		}
	}
	// Every confirmation handed out is still backed by its receipt.
	for _, p := range got {
		for _, r := range []response{p.a, p.b} {
			if r.status == http.StatusCreated {
				checkReceipt(t, s, r.body)
			}
		}
	}
}

// TestFaultOrderOnFullStorageIs507: an order whose receipt cannot be stored
// because storage is full answers 507 storage_full, as uploads do, not 502
// with storage's body.
func TestFaultOrderOnFullStorageIs507(t *testing.T) {
	cfg := testConfig()
	cfg.StorageMaxBytes = 4 << 10
	s := startServer(t, cfg)
	if r := do(t, context.Background(), http.MethodPost, s.URL()+"/api/async/upload?size=4096", nil); r.status != http.StatusCreated {
		t.Fatalf("filling the store: %d %s", r.status, r.body)
	}
	for _, kind := range []string{"sync", "async"} {
		r, err := postOrder(context.Background(), s, kind, orderBody("FULL-"+kind))
		if err != nil || r.status != http.StatusInsufficientStorage || documentedError(t, r) != codeStorageFull {
			t.Errorf("%s order on full storage: %d %s %v, want 507 %s", kind, r.status, r.body, err, codeStorageFull)
		}
	}
}

// TestReceiptReadableByRoute: the receipt a confirmation names can be read
// back through GET /api/blobs/NAME, slashes and all, with the MD5 the
// confirmation gave; path tricks are still refused.
func TestReceiptReadableByRoute(t *testing.T) {
	s := startServer(t, testConfig())
	r, err := postOrder(context.Background(), s, "async", orderBody("READ-1"))
	if err != nil || r.status != http.StatusCreated {
		t.Fatalf("order: %d %s %v", r.status, r.body, err)
	}
	var conf order.Confirmation
	if err := json.Unmarshal(r.body, &conf); err != nil {
		t.Fatal(err)
	}
	got := get(t, s.URL()+"/api/blobs/"+conf.Receipt.Name)
	if got.status != http.StatusOK || md5hex(got.body) != conf.Receipt.MD5 {
		t.Errorf("GET /api/blobs/%s: %d md5 %s, want 200 md5 %s", conf.Receipt.Name, got.status, md5hex(got.body), conf.Receipt.MD5)
	}
	for _, bad := range []string{"/api/blobs/receipts/../x", "/api/blobs/receipts/.x", "/api/blobs/a/b/c/d", "/api/blobs/receipts//x"} {
		if r := get(t, s.URL()+bad); r.status != http.StatusBadRequest && r.status != http.StatusNotFound {
			t.Errorf("GET %s: %d %s, want 400 or 404", bad, r.status, r.body)
		}
	}
}

// stopServer shuts s down within a bound, for tests that start another
// server on the same storage.
func stopServer(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

// ordersStarted is how many order runs s has started, on both routes.
func ordersStarted(t *testing.T, s *Server) float64 {
	t.Helper()
	return metricValue(t, s, `syncio_workflows_started_total{workflow="order-async"}`) +
		metricValue(t, s, `syncio_workflows_started_total{workflow="order-sync"}`)
}

// TestOrderAnswerSurvivesRestart: an order confirmed by one server is
// answered the same (status and body) by a server started later on the same
// storage, on either route, running nothing (no second receipt); the same ID
// with another body is 409 order_conflict. Before the record, the second
// server had forgotten the ID, ran the order again and answered a second
// 201 with a second receipt.
func TestOrderAnswerSurvivesRestart(t *testing.T) {
	cfg := testConfig()
	cfg.StoragePath = filepath.Join(t.TempDir(), "blobs")
	s, err := Start(context.Background(), cfg, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]response{}
	for _, kind := range []string{"sync", "async"} {
		r, err := postOrder(context.Background(), s, kind, orderBody("RS-"+kind))
		if err != nil || r.status != http.StatusCreated {
			t.Fatalf("%s order: %d %s %v", kind, r.status, r.body, err)
		}
		first[kind] = r
	}
	stopServer(t, s)

	again := startServer(t, cfg)
	for _, kind := range []string{"sync", "async"} {
		id := "RS-" + kind
		for _, route := range []string{"sync", "async"} {
			r, err := postOrder(context.Background(), again, route, orderBody(id))
			if err != nil || r.status != http.StatusCreated || !bytes.Equal(r.body, first[kind].body) {
				t.Errorf("%s after a restart, on the %s route: %d %s %v, want the first answer 201 %s",
					id, route, r.status, r.body, err, first[kind].body)
			}
		}
		other := strings.Replace(orderBody(id), `"quantity":3`, `"quantity":4`, 1)
		r, err := postOrder(context.Background(), again, kind, other)
		if err != nil || r.status != http.StatusConflict || documentedError(t, r) != codeOrderConflict {
			t.Errorf("%s with another body after a restart: %d %s %v, want 409 %s", id, r.status, r.body, err, codeOrderConflict)
		}
		checkReceipt(t, again, first[kind].body)
	}
	if n := ordersStarted(t, again); n != 0 {
		t.Errorf("the restarted server ran %v orders for repeats, want none", n)
	}
}
