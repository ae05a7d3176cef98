package dashboard

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// sseEvent is one parsed Server-Sent Event.
type sseEvent struct{ name, data string }

// readEvents reads the stream until it ends or n events arrived.
func readEvents(t *testing.T, body io.Reader, n int) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(body)
	for sc.Scan() && len(out) < n {
		line := sc.Text()
		switch {
		case line == "":
			if cur.data != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		}
	}
	return out
}

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start("127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

func get(t *testing.T, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestEventsStream(t *testing.T) {
	s := start(t)
	q, p50, p99 := 12.0, 0.5, 1.5
	s.Publish(Point{Time: time.Unix(1, 0), Scenario: "held", Step: 1, Users: 10, OKPerS: 5, Status503PerS: 2, LatencyP50S: &p50, LatencyP99S: &p99, QueueLength: &q, WorkersBusy: &q})
	resp := get(t, s.URL()+"events")
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	// The first point was sent before this client came: it is replayed;
	// the next two arrive live, then the summary ends the stream.
	go func() {
		time.Sleep(50 * time.Millisecond)
		s.Publish(Point{Scenario: "held", Step: 2, Users: 20})
		s.Publish(Point{Scenario: "free", Step: 2, Users: 20})
		s.Finish(Final{Text: "Headline at 20 users", Summary: map[string]any{"scenarios": []any{}}})
		_ = s.Close(context.Background())
	}()
	evs := readEvents(t, resp.Body, 10)
	if len(evs) != 4 {
		t.Fatalf("%d events, want 3 points and the summary: %+v", len(evs), evs)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(evs[0].data), &first); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"scenario", "users", "ok_per_s", "status_503_per_s", "latency_p50_s", "latency_p99_s", "queue_length", "workers_busy"} {
		if _, ok := first[k]; !ok {
			t.Errorf("point lacks %q: %s", k, evs[0].data)
		}
	}
	if first["queue_length"] != 12.0 || first["scenario"] != "held" || first["users"] != 10.0 {
		t.Errorf("first point %v", first)
	}
	var second map[string]any
	if err := json.Unmarshal([]byte(evs[1].data), &second); err != nil {
		t.Fatal(err)
	}
	if _, ok := second["queue_length"]; ok {
		t.Errorf("queue_length sent without a /metrics sample: %s", evs[1].data)
	}
	if evs[2].name != "" || !strings.Contains(evs[2].data, `"free"`) {
		t.Errorf("third event %+v", evs[2])
	}
	if evs[3].name != EventSummary || !strings.Contains(evs[3].data, "Headline at 20 users") {
		t.Errorf("last event %+v, want the summary", evs[3])
	}
}

func TestStartAddressInUse(t *testing.T) {
	s := start(t)
	addr := strings.TrimSuffix(strings.TrimPrefix(s.URL(), "http://"), "/")
	_, err := Start(addr, nil)
	if err == nil || !strings.Contains(err.Error(), addr) || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second dashboard on %s: %v, want an error naming the address in use", addr, err)
	}
}

// TestPageIsSelfContained: the page and everything it loads come from
// this server (no CDN), so it works offline.
func TestPageIsSelfContained(t *testing.T) {
	s := start(t)
	resp := get(t, s.URL())
	page, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(refs) < 3 {
		t.Fatalf("page references %v; want the script, the stylesheet and the icon", refs)
	}
	for _, r := range refs {
		ref := r[1]
		if strings.Contains(ref, "//") {
			t.Errorf("page loads %s from elsewhere", ref)
			continue
		}
		if strings.HasPrefix(ref, "data:") {
			continue
		}
		if a := get(t, s.URL()+ref); a.StatusCode != http.StatusOK {
			t.Errorf("%s: %s", ref, a.Status)
		}
	}
	missing := get(t, s.URL()+"nope.js")
	var e struct{ Error, Code string }
	if err := json.NewDecoder(missing.Body).Decode(&e); err != nil || missing.StatusCode != http.StatusNotFound || e.Code != "not_found" || !strings.Contains(e.Error, "nope.js") {
		t.Errorf("missing asset: %s, %+v, %v", missing.Status, e, err)
	}
	js := get(t, s.URL()+"dashboard.js")
	b, _ := io.ReadAll(js.Body)
	if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
		t.Error("dashboard.js refers to a network address")
	}
}

// TestEventsResume: a page that reconnects mid-run (EventSource sends the
// last id it saw) gets only the frames that followed, not every point
// again, which would draw each scenario's line twice.
func TestEventsResume(t *testing.T) {
	s := start(t)
	for i := 1; i <= 3; i++ {
		s.Publish(Point{Scenario: "held", Step: i, Users: 10 * i})
	}
	s.Finish(Final{Text: "done"})
	for _, tc := range []struct {
		lastID string
		want   int
	}{{"", 4}, {"2", 2}, {"4", 0}, {"99", 4}, {"x", 4}} {
		req, err := http.NewRequest(http.MethodGet, s.URL()+"events", nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.lastID != "" {
			req.Header.Set("Last-Event-ID", tc.lastID)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		// The server is still open, so the stream stays open: read what
		// is there until the timeout ends it.
		evs := readEvents(t, resp.Body, 10)
		resp.Body.Close()
		cancel()
		if len(evs) != tc.want {
			t.Errorf("Last-Event-ID %q: %d events, want %d: %+v", tc.lastID, len(evs), tc.want, evs)
		}
		if tc.lastID == "2" && len(evs) == 2 && !strings.Contains(evs[0].data, `"step":3`) {
			t.Errorf("Last-Event-ID 2: first event %+v, want step 3", evs[0])
		}
	}
}
