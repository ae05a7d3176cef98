// want package:`convs\(1\)`

// Package unfollowed keeps its handlers in a field of an unnamed struct
// type, which no key names in every package (a slot needs a named type,
// or a package variable): syncio cannot follow the call through it, so
// Serve reaches no operation, and the roots report must say so rather
// than read as clean.
package unfollowed

import "net/http"

type Event struct {
	W http.ResponseWriter
	R *http.Request
}

type hook = struct{ fn func(*Event) error }

func run(h *hook, e *Event) error { return h.fn(e) } // want run:`unfollowed`

var routes = map[string]*hook{}

func Register(path string, f func(*Event) error) { routes[path] = &hook{fn: f} }

// Serve is a root by signature that reaches no operation: what runs
// behind run is unseen.
func Serve(w http.ResponseWriter, r *http.Request) {
	if h := routes[r.URL.Path]; h != nil {
		run(h, &Event{W: w, R: r})
	}
}

func users(e *Event) error { // want users:`blocks\(SIO001: net/http.Get\)`
	_, err := http.Get("http://users.internal/" + e.R.URL.Path)
	return err
}

func init() { Register("/users", users) }

type plain struct{ fn func() error }

var fallback = plain{fn: func() error { return nil }}

// Health reaches an operation of its own: it is no blind root, whatever
// else it calls.
func Health(w http.ResponseWriter, r *http.Request) {
	_, _ = http.Get("http://db.internal/ping") // want `SIO001`
	_ = run(routes["/"], &Event{W: w, R: r})
}

// Local calls a func value it was given: the caller resolves that, so it
// is not unfollowed.
func Local(w http.ResponseWriter, r *http.Request) {
	f := func() error { return nil }
	_ = f()
}
