package after

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Timeouts bound the waits no handler can bound: for a request's
// headers, and between keep-alive requests. docs/rules/SIO008.md says
// why these values.
type Timeouts struct {
	Header, Idle time.Duration
}

// Defaults are the timeouts a service starts with.
var Defaults = Timeouts{Header: 10 * time.Second, Idle: 120 * time.Second}

// NewServer builds the API's server. Serve it with its ListenAndServe, and
// stop it with Shutdown.
func NewServer(addr string, h http.Handler, t Timeouts) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: t.Header, IdleTimeout: t.Idle}
}

// Dialer dials the quote service's raw TCP feed, giving up on a peer that
// does not answer after the timeout net/http's own transport uses.
var Dialer = &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}

// upstream is shared by every request; its Timeout is the floor for a call
// whose context has no deadline of its own.
var upstream = &http.Client{Timeout: 10 * time.Second}

// QuoteURL is the upstream quote service.
var QuoteURL = "http://quotes.internal/quote"

// quoteBudget is what a quote may take: the request's own deadline for the
// upstream call, which also ends when the client leaves.
const quoteBudget = 2 * time.Second

// Quote relays the upstream's quote.
func Quote(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), quoteBudget)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, QuoteURL, nil)
	if err != nil {
		slog.Error("quote request", "err", err)
		http.Error(w, `{"error":"internal error","code":"internal"}`, http.StatusInternalServerError)
		return
	}
	resp, err := upstream.Do(req)
	if err != nil {
		slog.Error("quote upstream", "err", err)
		http.Error(w, `{"error":"quote service unavailable","code":"upstream"}`, http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	var q struct{ Price float64 }
	if err := json.NewDecoder(resp.Body).Decode(&q); err != nil {
		slog.Error("quote body", "err", err)
		http.Error(w, `{"error":"quote service unavailable","code":"upstream"}`, http.StatusBadGateway)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(q)
}
