// Package api reaches storage only through interfaces; it imports no
// implementation. Its findings are reported by the package that wires them.
package api

import (
	"context"
	"net/http"
	"sync"
)

type Pinger interface{ Ping() error }

type Users interface {
	User(ctx context.Context, id string) (string, error)
}

type Handlers struct {
	DB    Pinger
	Users Users
	// OnSignup is a hook the wiring stores; the handler calls it on the
	// request path without knowing what it does.
	OnSignup func(email string) error
	mu       sync.Mutex
}

func (h *Handlers) Health(w http.ResponseWriter, r *http.Request) {
	if err := h.DB.Ping(); err != nil { // finding: SIO001
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
}

func (h *Handlers) User(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	name, _ := h.lookup(r.Context(), r.URL.Query().Get("id")) // finding: SIO001 // finding: SIO003
	_, _ = w.Write([]byte(name))
}

// Signup calls the stored hook: what runs is only known where it is set.
func (h *Handlers) Signup(w http.ResponseWriter, r *http.Request) {
	if err := h.OnSignup(r.FormValue("email")); err != nil { // finding: SIO001
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

// Report is registered through the service's own adapter (app.adapt).
func (h *Handlers) Report(r *http.Request) (string, error) {
	return "ok", h.DB.Ping()
}

func (h *Handlers) lookup(ctx context.Context, id string) (string, error) {
	return h.Users.User(ctx, id)
}

// Below the last exported declaration: go vet's export data of this file
// ends above these lines.

func (h *Handlers) ready(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.DB.Ping(); err != nil { // finding: SIO001 // finding: SIO003
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
	}
}

func (h *Handlers) name(w http.ResponseWriter, r *http.Request) {
	name, _ := h.lookup(r.Context(), "me") // finding: SIO001
	_, _ = w.Write([]byte(name))
}
