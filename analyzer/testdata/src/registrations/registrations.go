// Package registrations hands handlers to routers in every shape syncio // want package:`convs\(1\)`
// follows from a registration call, and in some it cannot follow; the
// test reads the package's result (seen.Package) as well.
package registrations

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/gorilla/mux"
	"github.com/labstack/echo/v5"
)

var db *sql.DB

// Handler is a handler type whose methods return echo v5 handler
// literals: g.GET("/", h.list()).
type Handler struct{ store *sql.DB }

func (h Handler) list() echo.HandlerFunc {
	return func(c *echo.Context) error {
		_, err := http.Get("http://upstream/list") // want `^net/http.Get blocks`
		return err
	}
}

// Show is registered as a method value, in echo v5's shape.
func (h Handler) Show(c *echo.Context) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

func convert(w http.ResponseWriter, r *http.Request) {
	_, _ = http.Get("http://upstream/convert") // want `^net/http.Get blocks`
}

type appFunc func(ctx context.Context, w http.ResponseWriter, r *http.Request) error

type server struct {
	handler http.HandlerFunc
}

// wrap is an adapter that keeps the handler in a local closure before
// returning it: its argument is a request root.
func (s *server) wrap(f appFunc) http.HandlerFunc { // want wrap:`^adapter\(0\)$`
	h := func(w http.ResponseWriter, r *http.Request) {
		if err := f(r.Context(), w, r); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	}
	return h
}

func (s *server) report(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://upstream/report") // want `^net/http.Get blocks`
	return err
}

// handlerOf returns a handler it keeps in a local: followed through its
// return statement.
func handlerOf() http.HandlerFunc {
	h := func(w http.ResponseWriter, r *http.Request) {
		_, _ = db.Query("SELECT 1") // want `^database/sql.\(\*DB\).Query blocks`
	}
	return h
}

// Routes registers through chi's Router interface, whose calls it
// exports as dynamic calls like any other interface's.
func Routes(e *echo.Echo, r chi.Router, m *mux.Router, s *server, hf http.HandlerFunc) { // want Routes:`^dyn\(r.Get\) \+ dyn\(r.Route\) \+ dyn\(r.Handle\) \+ dyn\(r.Get\) \+ dyn\(r.Get\)$` Routes:`^registrar\(4\) gorilla/mux$`
	h := Handler{}
	g := e.Group("/api")
	g.GET("/list", h.list())
	g.POST("/show", h.Show)

	local := func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Second) // want `^time.Sleep waits`
	}
	r.Get("/local", local)
	r.Route("/sub", func(r chi.Router) {
		r.Handle("/conv", http.HandlerFunc(convert))
	})
	r.Get("/returned", handlerOf())

	m.HandleFunc("/report", s.wrap(s.report))
	m.PathPrefix("/files").Handler(http.StripPrefix("/files", http.FileServer(http.Dir("."))))

	// A parameter is followed at Routes' callers; a field cannot be.
	m.HandleFunc("/param", hf)
	r.Get("/field", s.handler)
}

// The shape of a service whose routes go through a local closure, an
// adapter that keeps the handler in a local and hands it to a library
// wrapper, and wrappers that return closures calling the handler they
// wrap: every closure on the way, and the wrapped handler, are roots.
type dataFunc func(w http.ResponseWriter, r *http.Request, d *data) (int, error)

type data struct{ user string }

func handle(fn dataFunc, prefix string) http.Handler {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := fn(w, r, &data{}); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return http.StripPrefix(prefix, handler)
}

func withUser(fn dataFunc) dataFunc {
	return func(w http.ResponseWriter, r *http.Request, d *data) (int, error) {
		_ = db.QueryRow("SELECT name FROM users") // want `^database/sql.\(\*DB\).QueryRow blocks`
		return fn(w, r, d)
	}
}

var usersGet = withUser(func(w http.ResponseWriter, r *http.Request, d *data) (int, error) {
	_, err := http.Get("http://upstream/users") // want `^net/http.Get blocks`
	return 0, err
})

func loginHandler(secret string) dataFunc {
	return func(w http.ResponseWriter, r *http.Request, d *data) (int, error) {
		time.Sleep(time.Second) // want `^time.Sleep waits`
		return 0, nil
	}
}

// pages returns two handlers at once, taken apart at the registration.
func pages() (http.Handler, http.Handler) {
	return handle(indexPage, "/"), handle(staticPage, "/static")
}

func indexPage(w http.ResponseWriter, r *http.Request, d *data) (int, error) {
	_, err := http.Get("http://upstream/index") // want `^net/http.Get blocks`
	return 0, err
}

func staticPage(w http.ResponseWriter, r *http.Request, d *data) (int, error) {
	time.Sleep(time.Millisecond) // want `^time.Sleep waits`
	return 0, nil
}

func Wrapped(m *mux.Router) {
	monkey := func(fn dataFunc, prefix string) http.Handler {
		return handle(fn, prefix)
	}
	api := m.PathPrefix("/api").Subrouter()
	api.Handle("/users", monkey(usersGet, ""))
	api.Handle("/login", monkey(loginHandler("s"), "/login"))

	index, static := pages()
	m.PathPrefix("/static").Handler(static)
	m.Handle("/", index)
}
