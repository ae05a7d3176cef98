package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/syncio/syncio/loadtest/report"
)

// ColdStartScenarios are the scenarios the cold-start measurement compares:
// the profile lookup sync and async, and the upload with the shared client
// and with a client built per request.
var ColdStartScenarios = []string{"sync-profile", "async-profile", "async-upload", "async-upload-client-per-request"}

// ColdStartConfig configures ColdStart.
type ColdStartConfig struct {
	Scenarios []Scenario
	// Trials is the number of fresh servers per scenario; Requests the
	// number of warm requests timed after each first one.
	Trials, Requests int
	UploadSize       int
	// Start starts a fresh API and returns its base URL and a stop function.
	Start func(ctx context.Context) (baseURL string, stop func(), err error)
}

// ColdStart measures, for each scenario, the latency of the first request
// a freshly started API serves next to the median of the requests after it.
// Trials run scenario after scenario in turn, so a change in the machine's
// load hits every scenario alike. Requests go one at a time: this measures
// start-up costs (first connections to storage, lazy initialisation), not
// throughput. The client's own connection is opened with GET /healthz
// first, so dialling the API is not counted as server cold start.
func ColdStart(ctx context.Context, cfg ColdStartConfig) ([]report.ColdStart, error) {
	if cfg.Trials < 1 || cfg.Requests < 1 || cfg.Start == nil || len(cfg.Scenarios) == 0 {
		return nil, errors.New("coldstart: need scenarios, a Start function and at least one trial and one warm request")
	}
	out := make([]report.ColdStart, len(cfg.Scenarios))
	for i, sc := range cfg.Scenarios {
		out[i] = report.ColdStart{Name: sc.Name, Method: sc.Method, Path: sc.Path, Trials: cfg.Trials, WarmRequests: cfg.Requests}
	}
	for trial := 0; trial < cfg.Trials; trial++ {
		for i, sc := range cfg.Scenarios {
			first, warm, err := coldTrial(ctx, cfg, sc)
			if err != nil {
				return nil, fmt.Errorf("coldstart %s, trial %d: %w", sc.Name, trial+1, err)
			}
			out[i].FirstS = append(out[i].FirstS, first.Seconds())
			out[i].WarmMedianS = append(out[i].WarmMedianS, warm.Seconds())
		}
	}
	for i := range out {
		c := &out[i]
		c.FirstMedianOfTrialsS = median(c.FirstS)
		c.FirstMaxS = slices.Max(c.FirstS)
		c.WarmMedianOfTrialsS = median(c.WarmMedianS)
		if c.WarmMedianOfTrialsS > 0 {
			c.ColdWarmRatio = c.FirstMedianOfTrialsS / c.WarmMedianOfTrialsS
		}
	}
	return out, nil
}

// coldTrial starts one server and returns its first and median warm latency.
func coldTrial(ctx context.Context, cfg ColdStartConfig, sc Scenario) (first, warm time.Duration, err error) {
	base, stop, err := cfg.Start(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("starting the API: %w", err)
	}
	defer stop()
	tr := &http.Transport{MaxIdleConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	if _, err := send(ctx, client, http.MethodGet, base+"/healthz", nil, nil); err != nil {
		return 0, 0, err
	}
	tg := sc.Target(base, cfg.UploadSize)
	if first, err = send(ctx, client, tg.Method, tg.URL, tg.Header, tg.Body); err != nil {
		return 0, 0, err
	}
	lat := make([]float64, 0, cfg.Requests)
	for j := 0; j < cfg.Requests; j++ {
		d, err := send(ctx, client, tg.Method, tg.URL, tg.Header, tg.Body)
		if err != nil {
			return 0, 0, err
		}
		lat = append(lat, d.Seconds())
	}
	return first, time.Duration(median(lat) * float64(time.Second)), nil
}

// send times one request until its body is read; anything but 2xx fails.
func send(ctx context.Context, c *http.Client, method, url string, h http.Header, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("building request: %w", err)
	}
	req.Header = h.Clone()
	start := time.Now()
	resp, err := c.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, url, err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s %s: reading body: %w", method, url, err)
	}
	if resp.StatusCode/100 != 2 {
		return 0, fmt.Errorf("%s %s: status %d: %s", method, url, resp.StatusCode, bytes.TrimSpace(b))
	}
	return d, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// MachineNow describes the load generator's machine as it is now (CPUs, Go
// version, load average), for summaries written outside Run.
func MachineNow() report.Machine { return machine() }
