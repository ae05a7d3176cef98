// Package pagetest drives the dashboard page in headless Chromium, for the
// tests that check what a user sees: the dashboard's own browser test and
// the doc test of the own-service walkthrough.
package pagetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Lookup returns the browser to drive: SYNCIO_CHROMIUM, or Debian's
// chromium on the PATH, or "" when there is none.
func Lookup() string {
	if p := os.Getenv("SYNCIO_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Chromium returns Lookup's browser. Without one the test skips, except
// under CI=true, where it must run.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := Lookup(); p != "" {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found; .ci/run installs Debian's chromium package")
	}
	t.Skip("chromium not installed (apt-get install chromium); CI runs this test")
	return ""
}

// Page is the dashboard open in a headless browser.
type Page struct {
	// Ctx runs chromedp actions on the page.
	Ctx context.Context

	mu       sync.Mutex
	problems []string
}

// State is window.dashboard, which the page keeps for tests.
type State struct {
	Points  int  `json:"points"`
	Updates int  `json:"updates"`
	Summary bool `json:"summary"`
}

// Chart is one chart of window.dashboard.overlay: the scenarios it draws
// on its shared axes, its capacity line, and the top of its y axis.
type Chart struct {
	Scenarios []string `json:"scenarios"`
	Capacity  *float64 `json:"capacity"`
	Ymax      float64  `json:"ymax"`
}

// Open starts headless Chromium (Chromium), loads url and waits for the
// page's status line. The browser is closed when the test ends; Problems
// collects every console error, warning and uncaught exception meanwhile.
func Open(t testing.TB, url string) *Page {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(Chromium(t)), chromedp.NoSandbox, chromedp.Headless,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 1000))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	p := &Page{Ctx: ctx}
	messages := chromedp.Console(ctx)
	var reading sync.WaitGroup
	reading.Go(func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning || m.IsException() {
				p.mu.Lock()
				p.problems = append(p.problems, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m))
				p.mu.Unlock()
			}
		}
	})
	t.Cleanup(func() {
		cancelTimeout()
		cancel()
		cancelAlloc()
		reading.Wait()
	})
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible("#status")); err != nil {
		t.Fatal(err)
	}
	return p
}

// Problems returns what the browser reported as errors so far.
func (p *Page) Problems() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.problems...)
}

// WaitSummary polls window.dashboard until the page shows the run's
// summary or within has passed, and returns the last state.
func (p *Page) WaitSummary(t testing.TB, within time.Duration) State {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		state, err := chromedp.Run(p.Ctx, chromedp.Evaluate[State](`window.dashboard`))
		if err != nil {
			t.Fatal(err)
		}
		if state.Summary || time.Now().After(deadline) {
			return state
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Overlay returns window.dashboard.overlay, the charts that draw every
// scenario on shared axes, by title.
func (p *Page) Overlay(t testing.TB) map[string]Chart {
	t.Helper()
	ov, err := chromedp.Run(p.Ctx, chromedp.Evaluate[map[string]Chart](`window.dashboard.overlay`))
	if err != nil {
		t.Fatal(err)
	}
	return ov
}

// OverlayTitles are the titles of the overlay charts the tests read.
const (
	OverlayOK   = "OK/s, every scenario"
	OverlayBusy = "Busy workers vs capacity (-metric-workers), every scenario"
)

// Joined is a chart's scenarios as "a,b", for messages and comparisons.
func (c Chart) Joined() string { return strings.Join(c.Scenarios, ",") }
