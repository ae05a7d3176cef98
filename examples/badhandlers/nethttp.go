package badhandlers

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"time"
)

// Store holds what the handlers share.
type Store struct {
	DB         *sql.DB
	ProfileURL string
	Jobs       chan string
}

// Routes registers the net/http handlers.
func (s *Store) Routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/profile", s.Profile)
	mux.HandleFunc("/orders", s.Orders)
	mux.HandleFunc("/thumbnail", Thumbnail)
	mux.HandleFunc("/audit", s.Audit)
	mux.HandleFunc("/throttle", Throttle)
	mux.HandleFunc("/report", s.Report)
	mux.HandleFunc("/health", s.Health)
	return mux
}

// Profile proxies another service with http.Get: if the client hangs up,
// the outgoing request still runs to completion.
func (s *Store) Profile(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get(s.ProfileURL + "?id=" + r.URL.Query().Get("id")) // syncio: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	_, _ = io.Copy(w, resp.Body)
}

// Orders queries the database without the request's context, so a slow
// query keeps its connection after the client is gone.
func (s *Store) Orders(w http.ResponseWriter, r *http.Request) {
	rows, err := s.DB.Query("SELECT id FROM orders WHERE customer = ?", r.URL.Query().Get("customer")) // syncio: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fmt.Fprintln(w, id)
	}
}

// Thumbnail starts a process that nothing can stop when the request ends.
func Thumbnail(w http.ResponseWriter, r *http.Request) {
	out, err := exec.Command("convert", "in.png", "-resize", "64x64", "png:-").Output() // syncio: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	_, _ = w.Write(out)
}

// Audit hands context.Background() to a helper that accepts a context, so
// the write outlives the request.
func (s *Store) Audit(w http.ResponseWriter, r *http.Request) {
	if err := s.record(context.Background(), "audit "+r.URL.Path); err != nil { // syncio: SIO002
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// Throttle sleeps, and no cancelled request can cut the sleep short.
func Throttle(w http.ResponseWriter, r *http.Request) {
	time.Sleep(200 * time.Millisecond) // syncio: SIO005
	w.WriteHeader(http.StatusNoContent)
}

// Report blocks two helpers down: Report → loadReport → fetchJSON →
// http.Get. The finding is at the first call, with the whole chain.
func (s *Store) Report(w http.ResponseWriter, r *http.Request) {
	body, err := s.loadReport(r.URL.Query().Get("id")) // syncio: SIO001 chain
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write(body)
}

func (s *Store) loadReport(id string) ([]byte, error) {
	return fetchJSON(s.ProfileURL + "/reports/" + id)
}

func fetchJSON(url string) ([]byte, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", url, err)
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// record writes an audit event with the context it is given.
func (s *Store) record(ctx context.Context, event string) error {
	_, err := s.DB.ExecContext(ctx, "INSERT INTO audit(event) VALUES (?)", event)
	return err
}

// Health does the same kinds of work as the handlers above, all with the
// request's context: it is the example to follow.
func (s *Store) Health(w http.ResponseWriter, r *http.Request) { // syncio: clean
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.DB.PingContext(ctx); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.ProfileURL+"/health", nil)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_ = resp.Body.Close()
	if err := s.record(ctx, "health"); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// A pause that ends when the request does.
	t := time.NewTimer(10 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return
	case <-t.C:
	}
	w.WriteHeader(http.StatusNoContent)
}

// WarmCache is not on a request path (it is meant for start-up), so its
// context-less http.Get is not a finding.
func WarmCache(url string) error {
	_, err := fetchJSON(url)
	return err
}
