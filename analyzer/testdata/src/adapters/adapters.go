// Package adapters holds handlers of the service's own shape, made request
// roots by the adapters they are passed to.
package adapters

import (
	"database/sql"
	"net/http"
	"time"

	"adapters/mw"
)

var db *sql.DB

// adapt is a local adapter.
func adapt(d mw.Deps, h func(mw.Deps, *mw.Ctx)) http.Handler { // want adapt:`^adapter\(1\)$`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(d, &mw.Ctx{W: w, R: r})
	})
}

func listUsers(d mw.Deps, c *mw.Ctx) {
	_, _ = db.Query("SELECT * FROM users") // want `^database/sql.\(\*DB\).Query blocks`
}

func viaImported(d mw.Deps, c *mw.Ctx) {
	time.Sleep(time.Millisecond) // want `^time.Sleep waits`
}

// notRouted has the same shape but is passed to no adapter: not a root,
// so it only exports its fact.
func notRouted(d mw.Deps, c *mw.Ctx) { // want notRouted:`blocks\(SIO001`
	_, _ = db.Query("SELECT 1")
}

// appHandler is the net/http blog's adapter: a func type whose ServeHTTP
// calls it.
type appHandler func(http.ResponseWriter, *http.Request) error // want appHandler:`^adapter\(-1\)$`

func (fn appHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := fn(w, r); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

func view(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://upstream") // want `^net/http.Get blocks`
	return err
}

// middleware returns a handler that calls an http.Handler's method: not
// an adapter of func parameters.
func middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
}

func Routes(mux *http.ServeMux) {
	d := mw.Deps{}
	mux.Handle("/users", adapt(d, listUsers))
	mux.Handle("/imported", mw.Wrap(d, viaImported))
	mux.Handle("/lit", adapt(d, func(d mw.Deps, c *mw.Ctx) {
		time.Sleep(time.Millisecond) // want `^time.Sleep waits`
	}))
	mux.Handle("/view", middleware(appHandler(view)))
	_ = notRouted
}
