// Package app wires store into api: the first package that sees both.
package app

import (
	"database/sql"
	"net/http"
	"strings"

	"example.com/wired/api"
	"example.com/wired/config"
	"example.com/wired/store"
)

func Routes(db *sql.DB) *http.ServeMux {
	s := &store.SQL{DB: db}
	h := &api.Handlers{DB: s, Users: s, Sessions: &store.Memory{}, Tokens: s, Files: config.Files()}
	h.OnSignup = welcome
	mux := http.NewServeMux()
	mux.HandleFunc("/health", h.Health)
	mux.HandleFunc("/user", h.User)
	mux.HandleFunc("/signup", h.Signup)
	mux.HandleFunc("/session", h.Session)
	mux.HandleFunc("/download", h.Download)
	// A registration root: Report is no handler by its type; only the
	// registration through adapt makes it one.
	mux.HandleFunc("/report", adapt(h.Report)) // finding: SIO001
	route(mux, "/audit", audit)
	return mux
}

// apiFunc is the service's own handler shape, not net/http's.
type apiFunc func(r *http.Request) (string, error)

func adapt(f apiFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s, err := f(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(s))
	}
}

// route is the service's own registration helper (a registrar): audit
// serves requests only because route registers a closure that calls it.
func route(mux *http.ServeMux, path string, f apiFunc) {
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		if _, err := f(r); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
	})
}

func audit(r *http.Request) (string, error) {
	resp, err := http.Get("http://audit.internal/") // finding: SIO001
	if err != nil {
		return "", err
	}
	return resp.Status, resp.Body.Close()
}

// welcome is stored into the handlers' OnSignup field above: a stored
// callback that the request path runs.
func welcome(email string) error {
	resp, err := http.Post("http://mail.internal/welcome", "text/plain", strings.NewReader(email))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
