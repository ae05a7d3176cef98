package after

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/syncio/syncio/examples/remediation/streaming/before"
)

// The recipe's bounds scaled down: WriteTimeout is 50 ms, and the test
// streams for longer than that. The stream's own bounds stay generous, so
// that a loaded machine cannot end the stream that must survive.
const (
	writeTimeout = 50 * time.Millisecond
	events       = 15
	beforePause  = 5 // events sent before the test waits past WriteTimeout
)

var scaled = Bounds{
	ReadHeader: time.Second,
	Handler:    time.Second,
	Write:      writeTimeout,
	Read:       writeTimeout,
	Idle:       time.Second,
	Stream:     time.Minute,
	WriteWait:  10 * time.Second,
	ReadWait:   time.Second,
}

// feed is one subscription the test drives: each event is handed to the
// handler only when the test sends it.
type feed struct{ ch chan string }

func (f *feed) subscribe() (<-chan string, func()) { return f.ch, func() {} }

// received is what the client read: the data lines, and the error that
// ended the body (io.EOF for a complete response).
type received struct {
	data []string
	err  error
}

// stream serves srv and reads GET /events in a goroutine (the plain
// handler sends its headers only with the first event); each data line
// goes to lines, and the end of the body to done.
func stream(t *testing.T, srv *http.Server) (lines <-chan string, done <-chan received) {
	t.Helper()
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	t.Cleanup(ts.Close)
	out, end := make(chan string, events), make(chan received, 1)
	go func() {
		var r received
		defer func() { end <- r }()
		resp, err := ts.Client().Get(ts.URL + "/events")
		if err != nil {
			r.err = err
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			r.err = errors.New(resp.Status)
			return
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				r.data = append(r.data, d)
				out <- d
			}
		}
		r.err = sc.Err()
		if r.err == nil {
			r.err = io.EOF
		}
	}()
	return out, end
}

// drive sends the events: beforePause of them, each waited for at the
// client, then a pause of twice WriteTimeout (so the response's deadline
// has passed whatever the scheduler did), then the rest, then the end of
// the feed. It returns what the client read.
func drive(t *testing.T, f *feed, lines <-chan string, done <-chan received) received {
	t.Helper()
	guard := time.After(30 * time.Second) // a hang guard, not a measurement
	closed := false
	defer func() {
		if !closed { // the stream ended early: let the plain handler, which never watches its context, return
			close(f.ch)
		}
	}()
	for i := range events {
		if i == beforePause {
			time.Sleep(2 * writeTimeout)
		}
		select {
		case f.ch <- string(rune('a' + i)):
		case r := <-done:
			return r // the handler is gone: the stream ended early
		case <-guard:
			t.Fatal("the handler stopped taking events")
		}
		if i < beforePause {
			select {
			case <-lines:
			case r := <-done:
				return r
			case <-guard:
				t.Fatal("the client never got an event")
			}
		}
	}
	close(f.ch)
	closed = true
	select {
	case r := <-done:
		return r
	case <-guard:
		t.Fatal("the stream never ended")
	}
	return received{}
}

// TestStreamOutlivesWriteTimeout: behind the recipe's server, with its
// WriteTimeout scaled down to 50 ms, a stream that moves its write
// deadline per event (ResponseController) delivers all 15 events and
// ends cleanly; the same stream written plainly behind the same
// WriteTimeout loses the events written after the deadline and ends in an
// error. The counts prove it, not the clock.
func TestStreamOutlivesWriteTimeout(t *testing.T) {
	t.Run("ResponseController", func(t *testing.T) {
		f := &feed{ch: make(chan string)}
		h := &Events{Subscribe: f.subscribe, WriteWait: scaled.WriteWait, Log: slog.New(slog.DiscardHandler)}
		lines, done := stream(t, NewServer("", http.NotFoundHandler(), h, http.NotFoundHandler(), scaled))
		r := drive(t, f, lines, done)
		if len(r.data) != events || r.err != io.EOF {
			t.Fatalf("got %d of %d events, ended by %v; want all, ended by io.EOF", len(r.data), events, r.err)
		}
	})
	t.Run("plain", func(t *testing.T) {
		f := &feed{ch: make(chan string)}
		h := &before.Events{Subscribe: f.subscribe}
		mux := http.NewServeMux()
		mux.Handle("GET /events", h)
		lines, done := stream(t, before.NewServer("", mux, before.Bounds{ReadHeader: time.Second, Write: writeTimeout, Idle: time.Second}))
		r := drive(t, f, lines, done)
		if len(r.data) >= events || r.err == io.EOF {
			t.Fatalf("got %d of %d events, ended by %v; want events lost and the body cut", len(r.data), events, r.err)
		}
		t.Logf("plain stream: %d of %d events, then %v", len(r.data), events, r.err)
	})
}

// TestStreamSurvivesTimeoutRoutes: the routes that do not stream are
// still under TimeoutHandler, with its JSON body, past Bounds.Handler.
func TestStreamSurvivesTimeoutRoutes(t *testing.T) {
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	b := scaled
	b.Handler = 10 * time.Millisecond
	b.Write = time.Second
	srv := NewServer("", slow, http.NotFoundHandler(), http.NotFoundHandler(), b)
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()
	resp, err := ts.Client().Get(ts.URL + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"code":"timeout"`) {
		t.Errorf("slow route: %s %s, want 503 with the timeout body", resp.Status, body)
	}
}
