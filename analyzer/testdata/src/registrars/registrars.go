// Package registrars registers its routes through its own helpers, as
// navidrome's subsonic API does: h(r, path, f) hands hr a literal that
// calls f, and hr registers a local closure that calls its f. The
// handlers have no handler signature; only the helpers' callers show
// that they serve requests.
package registrars

import (
	"io"
	"net/http"

	"registrars/routing"
)

type handler = func(*http.Request) (string, error)

type handlerRaw = func(http.ResponseWriter, *http.Request) (string, error)

func routes(mux *http.ServeMux) {
	h(mux, "/user", getUser)
	hr(mux, "/stream", stream)
	h(mux, "/quiet", quiet)
	passOn(mux, "/passed", passed)
	routing.Add(mux, "/other", other)
}

func h(mux *http.ServeMux, path string, f handler) { // want h:`registrar\(2\) net/http`
	hr(mux, path, func(_ http.ResponseWriter, r *http.Request) (string, error) {
		return f(r)
	})
}

func hr(mux *http.ServeMux, path string, f handlerRaw) { // want hr:`registrar\(2\) net/http`
	handle := func(w http.ResponseWriter, r *http.Request) {
		res, err := f(w, r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(res))
	}
	mux.HandleFunc(path, handle)
}

// passOn hands its parameter to h: its callers register too.
func passOn(mux *http.ServeMux, path string, f handler) { h(mux, path, f) } // want passOn:`registrar\(2\) net/http`

func getUser(r *http.Request) (string, error) {
	resp, err := http.Get("http://users.internal/" + r.URL.Query().Get("id")) // want `^net/http.Get blocks without the request context`
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	return resp.Status, nil
}

func stream(w http.ResponseWriter, r *http.Request) (string, error) {
	resp, err := http.Get("http://media.internal/" + r.URL.Query().Get("id")) // want `^net/http.Get blocks without the request context`
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	_, err = io.Copy(w, resp.Body)
	return "", err
}

func quiet(r *http.Request) (string, error) { return r.URL.Path, nil }

func passed(r *http.Request) (string, error) {
	resp, err := http.Get("http://passed.internal/") // want `^net/http.Get blocks without the request context`
	if err != nil {
		return "", err
	}
	return resp.Status, resp.Body.Close()
}

func other(r *http.Request) error {
	resp, err := http.Get("http://other.internal/") // want `^net/http.Get blocks without the request context`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// notRegistered has the same shape as getUser and is never registered.
func notRegistered(r *http.Request) (string, error) { // want notRegistered:`blocks\(SIO001: net/http.Get\)`
	resp, err := http.Get("http://never.internal/")
	if err != nil {
		return "", err
	}
	return resp.Status, resp.Body.Close()
}
