// want package:`convs\(1\)`

// Package branches dispatches by path from one registered handler to
// functions of a handler's shape, as ntfy's handle → handleInternal does:
// each is a root, since what blocks in it is reported there, but a reader
// counts the one registered handler. The roots report must count the
// branches apart (seen.KindCalled) and never demote a function that is
// registered, converted or stored anywhere.
package branches

import (
	"net/http"

	"branches/api"
)

type visitor struct{}

// handleFunc is the service's own handler shape; handle's dispatch calls
// values of it, so functions converted to it are roots.
type handleFunc func(http.ResponseWriter, *http.Request, *visitor) error // want handleFunc:`adapter\(-1\)`

type Server struct{ mux *http.ServeMux }

// table keeps a handler as a value: it may be registered anywhere.
var table = map[string]http.HandlerFunc{}

func (s *Server) Routes() {
	s.mux.HandleFunc("/", s.handle)
	s.mux.HandleFunc("/listed", s.listed)
	s.mux.Handle("/converted", http.HandlerFunc(s.converted))
	s.mux.HandleFunc("/shared", api.Shared)
	table["stored"] = s.stored
	s.mux.HandleFunc("/wrapped", withLog(s.wrapped)) // adapted, then registered: a handler
}

// withLog is middleware: its literal is a root that wraps a handler.
func withLog(next http.HandlerFunc) http.HandlerFunc { // want withLog:`adapter\(0\)`
	return func(w http.ResponseWriter, r *http.Request) { next(w, r) }
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	_ = s.internal(w, r, &visitor{})
}

func (s *Server) internal(w http.ResponseWriter, r *http.Request, v *visitor) error {
	switch r.URL.Path {
	case "/a":
		return s.ensureUser(s.handleA)(w, r, v) // a branch through an adapter
	case "/b":
		return (handleFunc(s.handleB))(w, r, v) // a branch through a conversion
	case "/c":
		s.plain(w, r) // a branch called directly
	case "/d":
		s.login()(w, r) // the literal login returns, run on the spot
	case "/e":
		api.Manifest(w, r) // another package's function, only called
	case "/f":
		s.listed(w, r) // registered too: a handler
	case "/g":
		s.converted(w, r) // converted too: a handler
	case "/h":
		s.stored(w, r) // stored too: a handler
	case "/i":
		api.Shared(w, r) // registered too, in this package: a handler
	case "/j":
		var h hub
		h.ServeHTTP(w, r) // ServeHTTP runs through http.Handler: a handler
	}
	return nil
}

func (s *Server) ensureUser(next handleFunc) handleFunc {
	return func(w http.ResponseWriter, r *http.Request, v *visitor) error { return next(w, r, v) }
}

func (s *Server) handleA(w http.ResponseWriter, r *http.Request, v *visitor) error { return nil }
func (s *Server) handleB(w http.ResponseWriter, r *http.Request, v *visitor) error { return nil }
func (s *Server) plain(w http.ResponseWriter, r *http.Request)                     {}
func (s *Server) listed(w http.ResponseWriter, r *http.Request)                    {}
func (s *Server) converted(w http.ResponseWriter, r *http.Request)                 {}
func (s *Server) stored(w http.ResponseWriter, r *http.Request)                    {}
func (s *Server) wrapped(w http.ResponseWriter, r *http.Request)                   {}

func (s *Server) login() http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {}
}

type hub struct{}

func (hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
