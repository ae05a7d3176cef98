package api

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/syncio/syncio/api/activity/order"
	"github.com/syncio/syncio/api/pool"
)

func orderBody(id string) string {
	return fmt.Sprintf(`{"id":%q,"items":[{"sku":"pen","quantity":3,"priceCents":150},{"sku":"ink","quantity":1,"priceCents":999}]}`, id)
}

func postOrder(ctx context.Context, s *Server, kind, body string) (response, error) {
	return fetch(ctx, http.MethodPost, s.URL()+"/api/"+kind+"/order", strings.NewReader(body))
}

// metricValue reads one sample of the server's /metrics, or 0 if absent.
func metricValue(t *testing.T, s *Server, series string) float64 {
	t.Helper()
	r := get(t, s.URL()+"/metrics")
	for _, line := range strings.Split(string(r.body), "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			var v float64
			if _, err := fmt.Sscan(rest, &v); err != nil {
				t.Fatalf("metric %s: %v", line, err)
			}
			return v
		}
	}
	return 0
}

func readBlob(t *testing.T, s *Server, name string) ([]byte, error) {
	t.Helper()
	resp, err := s.app.store.client.DownloadStream(context.Background(), s.app.cfg.Container, name, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func TestOrderRoutes(t *testing.T) {
	s := startServer(t, testConfig())
	for _, kind := range []string{"sync", "async"} {
		t.Run(kind, func(t *testing.T) {
			id := "T-" + kind
			r, err := postOrder(context.Background(), s, kind, orderBody(id))
			if err != nil || r.status != http.StatusCreated {
				t.Fatalf("POST %s order: %d %s %v", kind, r.status, r.body, err)
			}
			var conf order.Confirmation
			if err := json.Unmarshal(r.body, &conf); err != nil {
				t.Fatal(err)
			}
			if conf.OrderID != id || conf.Customer != "Alton Hudgens" || conf.TotalCents != 1449 || conf.Status != "confirmed" {
				t.Errorf("confirmation = %+v", conf)
			}
			data, err := readBlob(t, s, conf.Receipt.Name)
			if err != nil {
				t.Fatalf("receipt %q not in storage: %v", conf.Receipt.Name, err)
			}
			sum := md5.Sum(data)
			if !strings.HasPrefix(conf.Receipt.Name, "receipts/"+id+"/") || conf.Receipt.Size != int64(len(data)) ||
				conf.Receipt.MD5 != hex.EncodeToString(sum[:]) {
				t.Errorf("receipt %+v does not match stored %d bytes", conf.Receipt, len(data))
			}
			if s.blobs.UsedBytes() == 0 {
				t.Error("embedded storage reports 0 bytes after a stored receipt")
			}
			if !bytes.Contains(data, []byte(`"totalCents":1449`)) {
				t.Errorf("receipt body %s lacks the total", data)
			}
			series := fmt.Sprintf(`syncio_workflows_completed_total{workflow="order-%s"}`, kind)
			if got := metricValue(t, s, series); got != 1 {
				t.Errorf("%s = %v, want 1", series, got)
			}
		})
	}
}

func TestBadOrderIs400AndUploadsNothing(t *testing.T) {
	s := startServer(t, testConfig())
	bad := map[string]string{
		"not json":      `{"id":`,
		"unknown field": `{"id":"BAD1","items":[{"sku":"pen","quantity":1,"priceCents":1}],"coupon":"x"}`,
		"zero quantity": `{"id":"BAD1","items":[{"sku":"pen","quantity":0,"priceCents":1}]}`,
		"no items":      `{"id":"BAD1","items":[]}`,
		"unsafe id":     `{"id":"../x","items":[{"sku":"pen","quantity":1,"priceCents":1}]}`,
		"trailing data": orderBody("BAD1") + `{}`,
		"trailing ]":    orderBody("BAD1") + `]`,
		"trailing }":    orderBody("BAD1") + "\n}",
		"client run":    `{"id":"BAD1","run":"0123456789abcdef","items":[{"sku":"pen","quantity":1,"priceCents":1}]}`,
		"overflow":      `{"id":"BAD1","items":[{"sku":"pen","quantity":1000,"priceCents":9223372036854775807}]}`,
		"total too big": `{"id":"BAD1","items":[{"sku":"pen","quantity":1000,"priceCents":10000000000000},{"sku":"ink","quantity":1,"priceCents":1}]}`,
	}
	for _, kind := range []string{"sync", "async"} {
		for name, body := range bad {
			r, err := postOrder(context.Background(), s, kind, body)
			if err != nil {
				t.Fatal(err)
			}
			if r.status != http.StatusBadRequest || documentedError(t, r) != codeInvalidOrder {
				t.Errorf("%s %s: %d %s, want 400 %s", kind, name, r.status, r.body, codeInvalidOrder)
			}
		}
	}
	// The embedded blob server cannot list blobs; its byte count shows that
	// nothing at all was stored.
	if used := s.blobs.UsedBytes(); used != 0 {
		t.Errorf("embedded storage holds %d bytes after only rejected orders", used)
	}
	for _, kind := range []string{"sync", "async"} {
		series := fmt.Sprintf(`syncio_workflows_started_total{workflow="order-%s"}`, kind)
		if got := metricValue(t, s, series); got != 0 {
			t.Errorf("%s = %v, want 0: a bad order must not start the workflow", series, got)
		}
	}
}

// An order body over maxOrderBytes is refused like an oversized upload: 413
// too_large, not 400.
func TestOversizedOrderIs413(t *testing.T) {
	s := startServer(t, testConfig())
	// Valid JSON up to the limit, so only the size can be wrong with it.
	body := `{"id":"BIG1","items":[{"sku":"` + strings.Repeat("x", maxOrderBytes) + `","quantity":1,"priceCents":1}]}`
	for _, kind := range []string{"sync", "async"} {
		r, err := postOrder(context.Background(), s, kind, body)
		if err != nil {
			t.Fatal(err)
		}
		if r.status != http.StatusRequestEntityTooLarge || documentedError(t, r) != codeTooLarge {
			t.Errorf("%s: %d %s, want 413 %s", kind, r.status, r.body, codeTooLarge)
		}
	}
}

// TestOrderWorkerUse: on a one-worker pool, n async orders all reach the
// profile service at once (each released its worker during the I/O), while
// n sync orders reach it one at a time with the rest queued.
func TestOrderWorkerUse(t *testing.T) {
	const n = 4
	for _, kind := range []string{"async", "sync"} {
		t.Run(kind, func(t *testing.T) {
			g, profileURL := newGate(t)
			cfg := testConfig()
			cfg.Workers, cfg.Queue, cfg.ProfileURL = 1, 2*n, profileURL
			s := startServer(t, cfg)
			results := make(chan response, n)
			for i := 0; i < n; i++ {
				go func() {
					r, err := postOrder(context.Background(), s, kind, orderBody(fmt.Sprintf("%s-%d", kind, i)))
					if err != nil {
						r.status = -1
					}
					results <- r
				}()
			}
			if kind == "async" {
				g.waitArrivals(t, n)
				waitPool(t, s, "every worker free while the calls are in flight", func(st pool.Stats) bool {
					return st.Busy == 0 && st.Queued == 0
				})
			} else {
				g.waitArrivals(t, 1)
				waitPool(t, s, "the other orders queued", func(st pool.Stats) bool {
					return st.Busy == 1 && st.Queued == n-1
				})
				if got := g.count(); got != 1 {
					t.Fatalf("profile service saw %d concurrent sync calls, want 1", got)
				}
			}
			g.open()
			for i := 0; i < n; i++ {
				if r := <-results; r.status != http.StatusCreated {
					t.Fatalf("%s order: %d %s", kind, r.status, r.body)
				}
			}
			if got := g.count(); got != n {
				t.Errorf("profile service saw %d calls, want %d", got, n)
			}
			series := fmt.Sprintf(`syncio_workflows_completed_total{workflow="order-%s"}`, kind)
			if got := metricValue(t, s, series); got != n {
				t.Errorf("%s = %v, want %d", series, got, n)
			}
		})
	}
}
