package dashboard

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Point is one second of one scenario, as /events sends it.
type Point struct {
	Time          time.Time `json:"time"`
	Scenario      string    `json:"scenario"`
	Step          int       `json:"step"` // 0 during the warm-up
	Users         int       `json:"users"`
	OKPerS        float64   `json:"ok_per_s"`
	Status503PerS float64   `json:"status_503_per_s"`
	ErrorsPerS    float64   `json:"errors_per_s"` // neither OK nor 503 (timeouts included)
	// Latencies of the second's OK responses: null in a second without
	// one, where a 0 would draw a fast service.
	LatencyP50S *float64 `json:"latency_p50_s"`
	LatencyP99S *float64 `json:"latency_p99_s"`
	// The server's figures, from its /metrics; absent when not sampled.
	QueueLength *float64 `json:"queue_length,omitempty"`
	WorkersBusy *float64 `json:"workers_busy,omitempty"`
	// Workers is the capacity (-metric-workers), drawn as a reference
	// line over busy workers; BlockedHoldingWorker the blocking watcher's
	// mean goroutines parked in I/O holding a worker since the previous
	// sample, when the service exposes it.
	// ServerAt is when the server figures were sampled: always inside
	// the point's own scenario, never the previous one's last scrape.
	ServerAt             *time.Time `json:"server_at,omitempty"`
	Workers              *float64   `json:"workers,omitempty"`
	BlockedHoldingWorker *float64   `json:"blocked_holding_worker,omitempty"`
	// Steps is the scenario's number of measured steps, and ETAS the
	// seconds left in the run's plan (drains between scenarios not
	// counted).
	Steps int     `json:"steps"`
	ETAS  float64 `json:"eta_s"`
}

// The SSE event names besides the default "message" (a Point).
const (
	EventSummary = "summary"
)

//go:embed assets
var assets embed.FS

// Server is a running dashboard. Publish and Finish may be called from any
// goroutine.
type Server struct {
	ln   net.Listener
	http *http.Server
	log  *slog.Logger

	mu     sync.Mutex
	frames [][]byte      // every SSE frame so far, replayed to new clients
	wake   chan struct{} // closed and replaced when frames grow or on close
	closed bool
}

// Start listens on addr (host:port; port 0 picks a free one) and serves
// the dashboard until Close. An address in use fails here, before the run.
func Start(addr string, log *slog.Logger) (*Server, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard on %s: %w", addr, err)
	}
	s := &Server{ln: ln, log: log, wake: make(chan struct{})}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("dashboard assets: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" {
			name = "index.html"
		}
		if st, err := fs.Stat(static, name); err != nil || st.IsDir() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_ = json.NewEncoder(w).Encode(map[string]string{"error": "no such page: /" + name, "code": "not_found"}) // the page is gone if this fails
			return
		}
		http.ServeFileFS(w, r, static, name)
	})
	mux.HandleFunc("GET /events", s.events)
	s.http = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 120 * time.Second}
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("dashboard stopped", "err", err)
		}
	}()
	return s, nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Publish sends p to every page.
func (s *Server) Publish(p Point) { s.send("", p) }

// Final is the stream's last event: the run's verdict as text, and its
// summary (summary.json's value) for the page's table.
type Final struct {
	Text    string `json:"text"`
	Summary any    `json:"summary,omitempty"`
}

// Finish sends the run's final event.
func (s *Server) Finish(f Final) { s.send(EventSummary, f) }

func (s *Server) send(event string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		s.log.Error("dashboard event", "err", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	// The id is the frame's number, from 1: a page that reconnects sends
	// the last one it saw as Last-Event-ID and gets only what followed.
	var b bytes.Buffer
	fmt.Fprintf(&b, "id: %d\n", len(s.frames)+1)
	if event != "" {
		fmt.Fprintf(&b, "event: %s\n", event)
	}
	fmt.Fprintf(&b, "data: %s\n\n", data)
	s.frames = append(s.frames, b.Bytes())
	close(s.wake)
	s.wake = make(chan struct{})
}

// next returns the frames from i on, and a channel closed when there are
// more; done says the server is closing and nothing more will come.
func (s *Server) next(i int) (frames [][]byte, more <-chan struct{}, done bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.frames[i:], s.wake, s.closed
}

// resumeAt is the index of the first frame a client has not seen, from its
// Last-Event-ID header: 0 for a new page (or an id this server never sent).
func (s *Server) resumeAt(lastID string) int {
	n, err := strconv.Atoi(lastID)
	if err != nil || n < 0 {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > len(s.frames) {
		return 0
	}
	return n
}

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, `{"error":"streaming unsupported","code":"no_streaming"}`, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	// The page reconnects after this long if the stream breaks mid-run.
	if _, err := fmt.Fprint(w, "retry: 2000\n\n"); err != nil {
		return
	}
	flusher.Flush()
	sent := s.resumeAt(r.Header.Get("Last-Event-ID"))
	for {
		frames, more, done := s.next(sent)
		for _, f := range frames {
			if _, err := w.Write(f); err != nil {
				return
			}
		}
		sent += len(frames)
		flusher.Flush()
		if done {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-more:
		}
	}
}

// Close stops taking events, lets every open page receive what was sent
// (the summary included), then stops the server; ctx bounds the wait.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.wake)
	}
	s.mu.Unlock()
	if err := s.http.Shutdown(ctx); err != nil {
		return fmt.Errorf("dashboard shutdown: %w", err)
	}
	return nil
}
