package before

import (
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// ListenAndServe serves h with net/http's zero-value server.
func ListenAndServe(addr string, h http.Handler) error {
	return http.ListenAndServe(addr, h) // syncio: SIO008
}

// NewServer builds the API's server.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h} // syncio: SIO008
}

// Dialer dials the quote service's raw TCP feed.
var Dialer = &net.Dialer{KeepAlive: 30 * time.Second} // syncio: SIO008

// upstream is shared by every request (SIO004's advice), but has no
// Timeout.
var upstream = &http.Client{}

// QuoteURL is the upstream quote service.
var QuoteURL = "http://quotes.internal/quote"

// Quote relays the upstream's quote.
func Quote(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, QuoteURL, nil)
	if err != nil {
		slog.Error("quote request", "err", err)
		http.Error(w, `{"error":"internal error","code":"internal"}`, http.StatusInternalServerError)
		return
	}
	resp, err := upstream.Do(req) // syncio: SIO008
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
