package dashboard_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syncio/syncio/loadtest"
	"github.com/syncio/syncio/loadtest/dashboard"
	"github.com/syncio/syncio/loadtest/dashboard/pagetest"
	"github.com/syncio/syncio/loadtest/report"
	"github.com/syncio/syncio/loadtest/schedule"
	"github.com/syncio/syncio/loadtest/scrape"
)

// slots is a service whose /held endpoint queues for one of two slots
// and keeps it across a 100 ms wait, and whose /metrics shows the queue.
func slots(t *testing.T) *httptest.Server {
	sem := make(chan struct{}, 2)
	var queued, busy atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /held", func(w http.ResponseWriter, r *http.Request) {
		queued.Add(1)
		sem <- struct{}{}
		queued.Add(-1)
		busy.Add(1)
		time.Sleep(100 * time.Millisecond)
		busy.Add(-1)
		<-sem
	})
	mux.HandleFunc("GET /free", func(w http.ResponseWriter, r *http.Request) { time.Sleep(100 * time.Millisecond) })
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "syncio_pool_queue_length %d\nsyncio_pool_workers_busy %d\nsyncio_pool_workers 2\n", queued.Load(), busy.Load())
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestDashboardInBrowser drives headless Chromium against a short run: the
// page loads without console errors, its charts are redrawn at least three
// times, it shows the summary at the end, and a screenshot is not blank.
func TestDashboardInBrowser(t *testing.T) {
	pagetest.Chromium(t)
	svc := slots(t)
	dash, err := dashboard.Start("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = dash.Close(context.Background()) }()
	page := pagetest.Open(t, dash.URL())
	ctx := page.Ctx

	scs := make([]loadtest.Scenario, 0, 2)
	for _, e := range []string{"held=GET /held", "free=GET /free"} {
		sc, err := loadtest.ParseEndpoint(e)
		if err != nil {
			t.Fatal(err)
		}
		scs = append(scs, sc)
	}
	prof := schedule.Profile{Name: "browser", Users: []int{2, 10}, Settle: 200 * time.Millisecond, Measure: time.Second,
		TopSettleBlocking: 200 * time.Millisecond, TopSettleAsync: 200 * time.Millisecond, TopMeasure: 1500 * time.Millisecond}
	sum, err := loadtest.Run(context.Background(), loadtest.Config{
		BaseURL: svc.URL, Profile: prof, Scenarios: scs, OutDir: t.TempDir(),
		ScrapeInterval: 200 * time.Millisecond, Drain: 5 * time.Second, BackendLatency: 100 * time.Millisecond,
		Live: dash.Publish,
	})
	if err != nil {
		t.Fatal(err)
	}
	dash.Finish(dashboard.Final{Text: sum.HeadlineText(), Summary: sum})

	state := page.WaitSummary(t, 20*time.Second)
	if !state.Summary || state.Points < 3 || state.Updates < 3 {
		t.Fatalf("page state %+v: want at least 3 points and chart updates, and the summary", state)
	}
	headline, err := chromedp.Run(ctx, chromedp.Text("#headline"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#steps tbody tr").length`))
	if err != nil {
		t.Fatal(err)
	}
	serverShown, err := chromedp.Run(ctx, chromedp.Evaluate[int](`[...document.querySelectorAll(".chart")].filter(c => !c.hidden && c.querySelector("h3").textContent.startsWith("Server")).length`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(headline, "free") || !strings.Contains(headline, "held") || rows != 4 {
		t.Errorf("summary: headline %q, %d step rows (want both endpoints and 4 rows)", headline, rows)
	}
	if serverShown != 2 {
		t.Errorf("%d scenarios show the server chart; /metrics was sampled, want 2", serverShown)
	}

	// The overlay: both scenarios on the same axes of each chart, and the
	// capacity line at the 2 workers /metrics reported.
	ov := page.Overlay(t)
	ok := ov[pagetest.OverlayOK]
	if ok.Joined() != "held,free" {
		t.Errorf("OK/s overlay draws %v, want held and free on one chart", ok.Scenarios)
	}
	busy := ov[pagetest.OverlayBusy]
	if busy.Capacity == nil || *busy.Capacity != 2 || busy.Ymax < 2 || len(busy.Scenarios) == 0 {
		t.Errorf("busy overlay %+v: want a capacity line at 2 workers within the axis", busy)
	}
	// Round axes: the y axis ends on a 1-2-5 multiple (3 for a capacity
	// of 2, not 2.2), and the scenario heading says step k of N.
	if y := ok.Ymax; y <= 0 || !roundTick(y) {
		t.Errorf("OK/s overlay y axis ends at %v, not a round 1-2-5 multiple", y)
	}
	head, err := chromedp.Run(ctx, chromedp.Text(".scenario h2 span"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(head, "step 2 of 2") {
		t.Errorf("scenario heading %q lacks step 2 of 2", head)
	}

	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	// Not blank: the luminance varies, and more than a few colours appear
	// (the charts' lines, text and panel borders).
	b := img.Bounds()
	var n, sum1, sum2 float64
	colours := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 65535
			n++
			sum1 += l
			sum2 += l * l
			colours[r>>8<<16|g>>8<<8|bl>>8] = true
		}
	}
	mean := sum1 / n
	variance := sum2/n - mean*mean
	if variance < 1e-3 || len(colours) < 20 {
		t.Errorf("screenshot looks blank: luminance variance %.5f, %d colours", variance, len(colours))
	}
	if dir := os.Getenv("SYNCIO_SCREENSHOT_DIR"); dir != "" {
		if err := os.WriteFile(dir+"/dashboard.png", shot, 0o644); err != nil {
			t.Error(err)
		}
	}

	// The service's /metrics has the pool gauges but not client_golang's
	// process and Go collectors: queue and busy are figures, RSS, cores
	// and goroutines "–", and the warnings say which metric is absent.
	cells, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelector("#steps tbody tr").cells].slice(-9, -4).map(c => c.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 5 || cells[0] == "–" || cells[1] == "–" || cells[2] != "–" || cells[3] != "–" || cells[4] != "–" {
		t.Errorf("queue, busy, RSS, cores, goroutines: %q, want figures for the first two and – for the process ones", cells)
	}
	warnings, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("warnings").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{scrape.MetricRSS, scrape.MetricCPU, scrape.MetricGoroutines} {
		if !strings.Contains(warnings, m+" is not in") {
			t.Errorf("the page's warnings do not name %s: %q", m, warnings)
		}
	}

	// A run without the server's /metrics shows "–" in its columns, not 0.
	noMetrics := *sum
	noMetrics.NoServerMetrics = true
	js, err := json.Marshal(dashboard.Final{Text: "no metrics", Summary: &noMetrics})
	if err != nil {
		t.Fatal(err)
	}
	cells, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`onSummary(`+string(js)+`);
		[...document.querySelector("#steps tbody tr").cells].slice(-9, -4).map(c => c.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cells, " ") != "– – – – –" {
		t.Errorf("server columns without /metrics: %q, want – in all five", cells)
	}

	// An open loop's short step shows what it sent, marked, with the cause
	// on hover; the codes column counts the responses.
	short := report.Summary{OpenLoopRate: 4000, Scenarios: []report.Scenario{{Name: "a", Steps: []report.Step{{Index: 1, Users: 1, RatePerS: 4000,
		Statuses: map[string]int{"200": 5, "503": 2}, Sent: &report.Sent{RatePerS: 760, Short: true, Cause: "the generator's CPU (97% of all cores)"}}}}}}
	js, err = json.Marshal(dashboard.Final{Text: "short", Summary: &short})
	if err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`onSummary(`+string(js)+`);
		(r => [r.cells[1].textContent, r.cells[1].title, r.cells[r.cells.length-1].textContent])(document.querySelector("#steps tbody tr"))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != "4000/s (sent 760)*" || !strings.Contains(got[1], "the generator's CPU") || got[2] != "200:5 503:2" {
		t.Errorf("short open-loop step on the page: %q", got)
	}

	if problems := page.Problems(); len(problems) > 0 {
		t.Errorf("browser reported problems:\n%s", strings.Join(problems, "\n"))
	}
}

// roundTick reports whether v is a multiple of a 1, 2 or 5 step that cuts
// it into at most four parts, as the page's axes are.
func roundTick(v float64) bool {
	for exp := 1e-3; exp <= 1e6; exp *= 10 {
		for _, m := range []float64{1, 2, 5} {
			step := m * exp
			if n := v / step; n <= 4.0001 && math.Abs(n-math.Round(n)) < 1e-6 {
				return true
			}
		}
	}
	return false
}
