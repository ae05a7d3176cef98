package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/syncio/syncio/api"
)

// TestScenarioTargetsAgainstRealAPI sends one request of every scenario, as
// the load lab builds it, to the real API started in-process with tiny
// latencies: each must succeed, so no scenario measures only errors.
func TestScenarioTargetsAgainstRealAPI(t *testing.T) {
	cfg := api.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.Workers, cfg.Queue = 2, 8
	cfg.ProfileLatency = time.Millisecond
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

	for _, sc := range Scenarios {
		tg := sc.Target(srv.URL(), 512)
		req, err := http.NewRequest(tg.Method, tg.URL, bytes.NewReader(tg.Body))
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
			continue
		}
		if sc.JSON != "" {
			var conf struct {
				OrderID, Status string
				TotalCents      int64
			}
			if err := json.Unmarshal(body, &conf); err != nil || conf.OrderID != "load-test" || conf.Status != "confirmed" || conf.TotalCents != 1299 {
				t.Errorf("%s: confirmation %s (%v)", sc.Name, body, err)
			}
		}
	}
}
