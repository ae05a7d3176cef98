// Package api reaches storage only through interfaces; it imports no
// implementation. Its findings are reported by the package that wires them.
package api

import (
	"context"
	"net/http"
	"sync"

	"example.com/wired/crash"
	"example.com/wired/files"
)

type Pinger interface{ Ping() error }

type Users interface {
	User(ctx context.Context, id string) (string, error)
}

// Sessions and Tokens are caches the wiring binds: app binds Sessions to
// the in-memory store.Memory and Tokens to the database.
type Sessions interface {
	Get(ctx context.Context, key string) (string, error)
}

type Tokens interface {
	Token(ctx context.Context, key string) (string, error)
}

type Handlers struct {
	DB       Pinger
	Users    Users
	Sessions Sessions
	Tokens   Tokens
	// OnSignup is a hook the wiring stores; the handler calls it on the
	// request path without knowing what it does.
	OnSignup func(email string) error
	// Files is bound in remote, a package app imports only through
	// config.
	Files files.Store
	mu    sync.Mutex
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

// Download reaches remote's client, bound below a package the wiring
// imports.
func (h *Handlers) Download(w http.ResponseWriter, r *http.Request) {
	body, _ := h.Files.Fetch(r.URL.Query().Get("key")) // finding: SIO001 // bound below an import
	_, _ = w.Write([]byte(body))
}

// Report is registered through the service's own adapter (app.adapt).
func (h *Handlers) Report(r *http.Request) (string, error) {
	return "ok", h.DB.Ping()
}

func (h *Handlers) lookup(ctx context.Context, id string) (string, error) {
	return h.Users.User(ctx, id)
}

// Session gives a context the request cannot cancel to helpers whose only
// evidence of I/O is a call through an interface: SIO002 is decided where
// the bindings are seen (app), silent for the in-memory cache, reported
// for the database.
func (h *Handlers) Session(w http.ResponseWriter, r *http.Request) {
	s, _ := h.session(context.Background(), "s")
	t, _ := h.token(context.Background(), "t") // finding: SIO002
	_, _ = w.Write([]byte(s + t))
}

// Version's branch ends the process (crash.Exit, another package): what it
// blocks on is no finding, under any driver; the markers list none.
func (h *Handlers) Version(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query().Get("v")
	if v == "" {
		_, _ = http.Get("http://crash.internal/report")
		crash.Exit("no version")
	}
	_, _ = w.Write([]byte(v))
}

func (h *Handlers) session(ctx context.Context, key string) (string, error) {
	return h.Sessions.Get(ctx, key)
}

func (h *Handlers) token(ctx context.Context, key string) (string, error) {
	return h.Tokens.Token(ctx, key)
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
