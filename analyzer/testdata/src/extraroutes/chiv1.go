package extraroutes // want package:`convs\(8\)`

import (
	"net/http"
	"time"

	chi1 "github.com/go-chi/chi"
)

// chi before v5: the same calls, at the import path without /v5.

func chi1Router(r chi1.Router, legacy, notFound, notAllowed view) { // want chi1Router:`^registrar\(1,2,3\) chi$` chi1Router:`^calls\(2\)$` chi1Router:`^dyn\(r.Mount\) \+ dyn\(r.NotFound\) \+ dyn\(r.MethodNotAllowed\)$`
	r.Mount("/legacy", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if legacy(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}))
	r.NotFound(func(w http.ResponseWriter, req *http.Request) {
		if notFound(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if notAllowed(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func chi1Mux(m *chi1.Mux, legacy, notFound, notAllowed view) { // want chi1Mux:`^registrar\(1,2,3\) chi$`
	m.Mount("/legacy", http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if legacy(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	}))
	m.NotFound(func(w http.ResponseWriter, req *http.Request) {
		if notFound(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
	m.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		if notAllowed(w, req) != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
		}
	})
}

func v1Legacy(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://v1-legacy.internal/") // want `^net/http.Get blocks`
	return err
}

func v1Missing(w http.ResponseWriter, r *http.Request) error {
	time.Sleep(time.Second) // want `^time.Sleep waits`
	return nil
}

func v1WrongMethod(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Head("http://v1-methods.internal/") // want `^net/http.Head blocks`
	return err
}

func v1MuxLegacy(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Get("http://v1-mux-legacy.internal/") // want `^net/http.Get blocks`
	return err
}

func v1MuxMissing(w http.ResponseWriter, r *http.Request) error {
	time.Sleep(2 * time.Second) // want `^time.Sleep waits`
	return nil
}

func v1MuxWrongMethod(w http.ResponseWriter, r *http.Request) error {
	_, err := http.Head("http://v1-mux-methods.internal/") // want `^net/http.Head blocks`
	return err
}

// ChiV1 wires chi v1's registrars.
func ChiV1() { // want ChiV1:`^dyn\(extraroutes.chi1Router → r.Mount\) \+ dyn\(extraroutes.chi1Router → r.NotFound\) \+ dyn\(extraroutes.chi1Router → r.MethodNotAllowed\)$`
	m := chi1.NewRouter()
	chi1Router(m, v1Legacy, v1Missing, v1WrongMethod)
	chi1Mux(m, v1MuxLegacy, v1MuxMissing, v1MuxWrongMethod)
}
