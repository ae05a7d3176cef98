// Package api holds handlers that pass func literals to the store's
// interface methods.
package api

import (
	"net/http"
	"os/exec"
	"time"

	"ifacecb/model"
)

type API struct{ DS model.DataStore }

// Star's literal runs inside the bound WithTxImmediate, two literals deep.
func (a *API) Star(w http.ResponseWriter, r *http.Request) {
	_ = a.DS.WithTxImmediate(func(tx model.DataStore) error { // reports: `^\(\*API\).Star calls a.DS.WithTxImmediate \(model.DataStore, bound to \*persistence.SQLStore in persistence.New\) → persistence.\(\*SQLStore\).WithTxImmediate → func literal at api.go:17 → os/exec.Command, which starts a process the request cannot cancel`
		return exec.Command("true").Run()
	})
}

// Touch passes a method value.
func (a *API) Touch(w http.ResponseWriter, r *http.Request) {
	_ = a.DS.WithTx(a.touch) // reports: `^\(\*API\).Touch calls a.DS.WithTx \(model.DataStore, bound to \*persistence.SQLStore in persistence.New\) → persistence.\(\*SQLStore\).WithTx → api.\(\*API\).touch → os/exec.Command, which starts a process the request cannot cancel`
}

func (a *API) touch(tx model.DataStore) error { return exec.Command("touch", "x").Run() }

// Later's literal is only kept by the implementation: silent.
func (a *API) Later(w http.ResponseWriter, r *http.Request) {
	_ = a.DS.OnCommit(func(tx model.DataStore) error {
		return exec.Command("true").Run()
	})
}

// Async's literal is started with go by the implementation: silent.
func (a *API) Async(w http.ResponseWriter, r *http.Request) {
	_ = a.DS.Background(func(tx model.DataStore) error {
		return exec.Command("true").Run()
	})
}

// Quick's literal does nothing that blocks: silent.
func (a *API) Quick(w http.ResponseWriter, r *http.Request) {
	_ = a.DS.WithTx(func(tx model.DataStore) error { return nil })
}

// Queue's literal is kept by an implementation that blocks itself: only
// the implementation's own call is reported, not the literal's sleep.
func (a *API) Queue(w http.ResponseWriter, r *http.Request) {
	_ = a.DS.Enqueue(func(tx model.DataStore) error { // reports: `^\(\*API\).Queue calls a.DS.Enqueue \(model.DataStore, bound to \*persistence.SQLStore in persistence.New\) → persistence.\(\*SQLStore\).Enqueue → net/http.Get, which blocks`
		time.Sleep(time.Second)
		return nil
	})
}
