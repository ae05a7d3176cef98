package confirm_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/syncio/syncio/blockwatch"
	"github.com/syncio/syncio/examples/remediation/monitoring/confirm"
)

// backendWait is the backend call the watcher must find: it parks on a
// timer or the request's end, as a network wait would.
func backendWait(ctx context.Context) error {
	t := time.NewTimer(50 * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestReportNamesTheSlotHeldAcrossTheWait: under a short load, the report
// has the backend wait as a site holding the slot, under the route label.
func TestReportNamesTheSlotHeldAcrossTheWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(confirm.Routes(ctx, backendWait, 2))
	defer srv.Close()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := srv.Client().Get(srv.URL + "/quote")
				if err != nil {
					return
				}
				resp.Body.Close()
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()

	// Polls until the watcher has sampled the wait; the bound only keeps a
	// broken build from hanging.
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := srv.Client().Get(srv.URL + "/debug/syncio/blocking")
		if err != nil {
			t.Fatal(err)
		}
		var rep struct{ Sites []blockwatch.Site }
		err = json.NewDecoder(resp.Body).Decode(&rep)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Sites {
			switch {
			case strings.HasSuffix(s.Func, ".backendWait"):
				if !s.HoldingWorker || s.Routes["GET /quote"] == 0 || s.BlockedS <= 0 {
					t.Fatalf("site %s: holding_worker %v, routes %v, blocked %v s; want the slot held under GET /quote", s.Site, s.HoldingWorker, s.Routes, s.BlockedS)
				}
				return
			case s.HoldingWorker:
				// The wait for a free slot (the send on sem) holds none.
				t.Fatalf("site %s (%s wait) holds a slot; only the backend wait does", s.Site, s.Kind)
			}
		}
	}
	t.Fatal("the watcher never reported the backend wait")
}
