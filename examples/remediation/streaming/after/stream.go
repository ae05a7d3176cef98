package after

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	ctxprop "github.com/syncio/syncio/examples/remediation/ctxpropagation/after"
)

// Bounds are the server's time limits, as fields so that a test can
// scale them down; DefaultBounds are the recipe's.
type Bounds struct {
	ReadHeader time.Duration // a slow or idle client cannot hold a connection before its request
	Handler    time.Duration // a route that does not stream, answered 503 past it
	Write      time.Duration // the whole response of a route that does not stream
	Idle       time.Duration
	Read       time.Duration // the whole request, body included, of a route that does not upload
	Stream     time.Duration // the longest a stream or an upload may last
	WriteWait  time.Duration // the longest one event may take to reach the client's socket
	ReadWait   time.Duration // the longest an upload may send nothing
}

// DefaultBounds are the bounds of ctxpropagation/after's server, and those
// of a stream.
var DefaultBounds = Bounds{
	ReadHeader: 5 * time.Second,
	Handler:    10 * time.Second,
	Write:      15 * time.Second, // longer than Handler, so the 503 can still be written
	Idle:       60 * time.Second,
	Read:       10 * time.Second,
	Stream:     30 * time.Minute,
	WriteWait:  10 * time.Second,
	ReadWait:   10 * time.Second,
}

// NewServer serves api under TimeoutHandler, and streams and uploads
// under a deadline of their own. The server's ReadTimeout and
// WriteTimeout stay: they bound every request that does not stream or
// upload, and the streaming and uploading handlers move their
// connection's deadlines themselves (Events, Upload). Without that, the
// server's timeouts, fixed when the request is read, cut every stream and
// upload that lasts longer.
func NewServer(addr string, api, streams, uploads http.Handler, b Bounds) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("/", http.TimeoutHandler(api, b.Handler, `{"error":"request took too long","code":"timeout"}`))
	mux.Handle("GET /events", ctxprop.WithDeadline(streams, b.Stream))
	mux.Handle("POST /uploads", ctxprop.WithDeadline(uploads, b.Stream))
	return &http.Server{
		Addr:              addr,
		Handler:           mux,
		ReadHeaderTimeout: b.ReadHeader,
		ReadTimeout:       b.Read,
		WriteTimeout:      b.Write,
		IdleTimeout:       b.Idle,
	}
}

// Events sends the events of a feed to the client as they come.
type Events struct {
	// Subscribe returns a feed of events and a function that ends the
	// subscription.
	Subscribe func() (<-chan string, func())
	WriteWait time.Duration // Bounds.WriteWait
	Log       *slog.Logger
}

// ServeHTTP gives each write a deadline of its own: the server's
// WriteTimeout ran from the request's start and would cut the stream. A
// client that stops reading fills its socket's buffer, and the write past
// WriteWait fails, which ends the stream and frees the handler.
func (e *Events) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	feed, stop := e.Subscribe()
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	ev := ": stream open" // a comment line: the client sees the headers at once
	for {
		// An error here means the writer cannot take a deadline (a
		// wrapper without Unwrap, a test recorder): stop rather than
		// write with no bound.
		if err := rc.SetWriteDeadline(time.Now().Add(e.WriteWait)); err != nil {
			e.Log.Warn("stream without a write deadline", "err", err)
			return
		}
		if _, err := fmt.Fprintf(w, "%s\n\n", ev); err != nil {
			e.Log.Info("stream ended", "err", err)
			return
		}
		if err := rc.Flush(); err != nil {
			e.Log.Info("stream ended", "err", err)
			return
		}
		select {
		case <-r.Context().Done(): // the client left, or the stream's deadline passed
			return
		case next, ok := <-feed:
			if !ok {
				return
			}
			ev = "data: " + next
		}
	}
}
