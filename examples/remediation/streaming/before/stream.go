package before

import (
	"fmt"
	"net/http"
	"time"
)

// Bounds are the server's time limits, as fields so that a test can
// scale them down.
type Bounds struct {
	ReadHeader time.Duration
	Write      time.Duration
	Idle       time.Duration
}

// NewServer serves h with b: every response, streams included, must be
// written within b.Write of its request.
func NewServer(addr string, h http.Handler, b Bounds) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: b.ReadHeader,
		WriteTimeout:      b.Write,
		IdleTimeout:       b.Idle,
	}
}

// Events sends the events of a feed to the client as they come.
type Events struct {
	// Subscribe returns a feed of events and a function that ends the
	// subscription.
	Subscribe func() (<-chan string, func())
}

// ServeHTTP writes each event and flushes it. It relies on the server's
// WriteTimeout to drop a client that stops reading.
func (e *Events) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, `{"error":"streaming unsupported","code":"internal"}`, http.StatusInternalServerError)
		return
	}
	feed, stop := e.Subscribe()
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	for ev := range feed { // syncio: SIO005
		fmt.Fprintf(w, "data: %s\n\n", ev)
		flusher.Flush()
	}
}
