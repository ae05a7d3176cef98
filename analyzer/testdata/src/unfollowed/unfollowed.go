// want package:`convs\(1\)`

// Package unfollowed keeps its handlers in a generic type's field, as a
// router of a program's own may (pocketbase's Route[T].Action): syncio
// cannot follow the call through it, so Serve reaches no operation, and
// the roots report must say so rather than read as clean.
package unfollowed

import "net/http"

type Event struct {
	W http.ResponseWriter
	R *http.Request
}

type hook[T any] struct{ fn func(T) error }

func (h *hook[T]) run(e T) error { return h.fn(e) } // want run:`unfollowed`

var routes = map[string]*hook[*Event]{}

func Register(path string, f func(*Event) error) { routes[path] = &hook[*Event]{fn: f} }

// Serve is a root by signature that reaches no operation: what runs
// behind h.run is unseen.
func Serve(w http.ResponseWriter, r *http.Request) {
	if h := routes[r.URL.Path]; h != nil {
		h.run(&Event{W: w, R: r})
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
	_ = routes["/"].run(&Event{W: w, R: r})
}

// Local calls a func value it was given: the caller resolves that, so it
// is not unfollowed.
func Local(w http.ResponseWriter, r *http.Request) {
	f := func() error { return nil }
	_ = f()
}
