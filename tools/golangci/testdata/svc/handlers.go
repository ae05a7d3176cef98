// Package svc is a tiny net/http service for the golangci-lint plugin test.
// A "// finding: ID" comment marks a line where syncio must report rule ID
// under the default settings, and a "// related" comment a hop of a call
// chain, which golangci-lint reports as a separate "related information"
// issue; unmarked lines must stay quiet.
package svc

import (
	"context"
	"net/http"
	"time"
)

var client = &http.Client{}

// Proxy builds its outgoing request without the request's context.
func Proxy(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequest(http.MethodGet, "http://127.0.0.1:9/upstream", nil) // finding: SIO001
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp, err := client.Do(req) // finding: SIO008
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_ = resp.Body.Close()
}

// Detached replaces the request's context with a fresh one.
func Detached(w http.ResponseWriter, r *http.Request) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://127.0.0.1:9/", nil) // finding: SIO002
	if err != nil {
		return
	}
	_ = req
}

// Slow waits with no way for the client to cancel the wait.
func Slow(w http.ResponseWriter, r *http.Request) {
	time.Sleep(10 * time.Millisecond) // finding: SIO005
	w.WriteHeader(http.StatusNoContent)
}

// Report reaches the blocking call through two helpers: the finding is at
// the handler's call, and the hops are related information.
func Report(w http.ResponseWriter, r *http.Request) {
	if err := load(); err != nil { // finding: SIO001
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}

func load() error {
	return fetch() // related
}

func fetch() error {
	resp, err := http.Get("http://127.0.0.1:9/report") // related
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Throttled waits as well, but golangci-lint's own directive silences it.
func Throttled(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Millisecond) //nolint:syncio // the test's nolint case
}

// Paced waits as well, but syncio's own directive silences it.
func Paced(w http.ResponseWriter, r *http.Request) {
	time.Sleep(time.Millisecond) //syncio:ignore SIO005 -- the test's ignore case
}

// Wait honours cancellation, so it is clean. (It also keeps the context
// import in use once --fix has rewritten Detached: the analyzer's fix does
// not remove an import it leaves unused.)
func Wait(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(time.Millisecond):
	}
}
