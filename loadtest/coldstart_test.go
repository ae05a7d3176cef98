package loadtest

import (
	"bytes"
	"context"
	"log/slog"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/api"
	"github.com/syncio/syncio/loadtest/report"
)

// startTinyAPI is a ColdStartConfig.Start over the real API with tiny
// latencies; it counts the servers it starts.
func startTinyAPI(started *int) func(context.Context) (string, func(), error) {
	return func(ctx context.Context) (string, func(), error) {
		cfg := api.DefaultConfig()
		cfg.Addr = "127.0.0.1:0"
		cfg.Workers, cfg.Queue = 2, 4
		cfg.ProfileLatency = time.Millisecond
		srv, err := api.Start(ctx, cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			return "", nil, err
		}
		*started++
		return srv.URL(), func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		}, nil
	}
}

func TestColdStart(t *testing.T) {
	var scs []Scenario
	for _, name := range ColdStartScenarios {
		sel, err := Select(name)
		if err != nil {
			t.Fatal(err)
		}
		scs = append(scs, sel...)
	}
	started := 0
	res, err := ColdStart(context.Background(), ColdStartConfig{
		Scenarios: scs, Trials: 2, Requests: 3, UploadSize: 256, Start: startTinyAPI(&started),
	})
	if err != nil {
		t.Fatal(err)
	}
	if started != 2*len(scs) {
		t.Errorf("started %d servers, want a fresh one per trial and scenario (%d)", started, 2*len(scs))
	}
	if len(res) != len(scs) {
		t.Fatalf("%d results for %d scenarios", len(res), len(scs))
	}
	for i, c := range res {
		if c.Name != scs[i].Name || len(c.FirstS) != 2 || len(c.WarmMedianS) != 2 || c.Trials != 2 || c.WarmRequests != 3 {
			t.Errorf("result %+v", c)
			continue
		}
		if c.FirstMedianOfTrialsS <= 0 || c.WarmMedianOfTrialsS <= 0 || c.FirstMaxS < c.FirstMedianOfTrialsS {
			t.Errorf("%s: first %v (max %v), warm %v", c.Name, c.FirstMedianOfTrialsS, c.FirstMaxS, c.WarmMedianOfTrialsS)
		}
		if want := c.FirstMedianOfTrialsS / c.WarmMedianOfTrialsS; math.Abs(c.ColdWarmRatio-want) > 1e-9 {
			t.Errorf("%s: ratio %v, want %v", c.Name, c.ColdWarmRatio, want)
		}
	}

	// The results travel through summary.json and appear in summary.md.
	sum := &report.Summary{Profile: "coldstart", ColdStart: res}
	path := filepath.Join(t.TempDir(), report.SummaryFile)
	if err := sum.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	back, err := report.ReadJSON(path)
	if err != nil || len(back.ColdStart) != len(res) || back.ColdStart[0].FirstS[1] != res[0].FirstS[1] {
		t.Fatalf("summary.json round trip: %v, %+v", err, back)
	}
	var md bytes.Buffer
	if err := sum.WriteMarkdown(&md, nil); err != nil {
		t.Fatal(err)
	}
	for _, sc := range scs {
		if !strings.Contains(md.String(), "| "+sc.Name+" | 2 | 3 |") {
			t.Errorf("summary.md lacks the %s row:\n%s", sc.Name, md.String())
		}
	}
}

func TestColdStartFailsOnErrorStatus(t *testing.T) {
	started := 0
	bad := Scenario{Name: "missing", Method: http.MethodGet, Path: "/api/nope"}
	_, err := ColdStart(context.Background(), ColdStartConfig{
		Scenarios: []Scenario{bad}, Trials: 1, Requests: 1, Start: startTinyAPI(&started),
	})
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("err = %v, want a 404 failure", err)
	}
}
