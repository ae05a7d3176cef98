package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/api/activity/temporal/temporaltest"
)

// TestScenarioTargetsAgainstRealAPI sends one request of every scenario, as
// the load lab builds it, to the real API started in-process with tiny
// latencies: each must succeed, so no scenario measures only errors.
func TestScenarioTargetsAgainstRealAPI(t *testing.T) {
	srv, client := startAPI(t, "")
	for _, sc := range Scenarios {
		if sc.Temporal {
			continue // TestTemporalScenarioRunsOnTemporal
		}
		checkScenario(t, client, sc, srv.URL())
	}
}

// TestTemporalScenarioRunsOnTemporal: the Temporal scenarios succeed
// against the API started with Temporal, and their orders are workflows
// there, not in-process runs.
func TestTemporalScenarioRunsOnTemporal(t *testing.T) {
	ts := temporaltest.Start(t)
	srv, client := startAPI(t, ts.HostPort)
	n := 0
	for _, sc := range Scenarios {
		if sc.Temporal {
			n += checkScenario(t, client, sc, srv.URL())
		}
	}
	if n == 0 {
		t.Fatal("no Temporal order confirmed (no Temporal scenario in the table, or every order failed)")
	}
	// Visibility lags the history a little.
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := ts.Client().CountWorkflow(context.Background(), &workflowservice.CountWorkflowExecutionsRequest{Query: "WorkflowType = 'Order' AND ExecutionStatus = 'Completed'"})
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetCount() == int64(n) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d completed Order workflows on Temporal, want %d", resp.GetCount(), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startAPI starts the real API in-process with tiny latencies, on Temporal
// when temporal is set, and a client for it; both end with the test.
func startAPI(t *testing.T, temporal string) (*api.Server, *http.Client) {
	t.Helper()
	cfg := api.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.Workers, cfg.Queue = 2, 8
	cfg.ProfileLatency = time.Millisecond
	cfg.Temporal = temporal
	srv, err := api.Start(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	return srv, client
}

// checkScenario sends a request of sc, as the lab builds it, to baseURL: it
// must succeed. It returns the orders confirmed. An order scenario sends two, which must be confirmed as two
// orders: a repeated ID would be answered from the first order's record and
// measure a lookup instead of the workflow.
func checkScenario(t *testing.T, client *http.Client, sc Scenario, baseURL string) int {
	t.Helper()
	tg := sc.Target(baseURL, 512)
	sends := 1
	if sc.Order {
		sends = 2
	}
	var ids []string
	for n := range sends {
		payload := tg.Body
		if tg.BodyFor != nil {
			payload = tg.BodyFor(uint64(n))
		}
		req, err := http.NewRequest(tg.Method, tg.URL, bytes.NewReader(payload))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = tg.Header.Clone()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode/100 != 2 {
			t.Errorf("%s: %s %s = %d %s", sc.Name, tg.Method, tg.URL, resp.StatusCode, body)
			return len(ids)
		}
		if !sc.Order {
			continue
		}
		var conf struct {
			OrderID, Status string
			TotalCents      int64
		}
		if err := json.Unmarshal(body, &conf); err != nil || !strings.HasPrefix(conf.OrderID, "load-") || conf.Status != "confirmed" || conf.TotalCents != 1299 {
			t.Errorf("%s: confirmation %s (%v)", sc.Name, body, err)
		}
		ids = append(ids, conf.OrderID)
	}
	if len(ids) == 2 && ids[0] == ids[1] {
		t.Errorf("%s: two requests confirmed the same order %q; each request must post its own ID", sc.Name, ids[0])
	}
	return len(ids)
}
