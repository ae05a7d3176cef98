// Package api holds handlers that reach storage only through interfaces;
// it imports none of the implementations.
package api

import (
	"context"
	"net/http"
	"sync"

	"wired/blob"
)

type HealthDB interface{ Ping() error }

type Health struct{ DB HealthDB }

func (h Health) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = h.DB.Ping() // reports: `^Health.ServeHTTP calls h.DB.Ping \(api.HealthDB, bound to \*store.SQL in app.Routes\) → store.\(\*SQL\).Ping → database/sql.\(\*DB\).Ping, which blocks without the request context; use db.PingContext\(ctx\) \(SIO001\)$`
}

type UserStore interface {
	User(id string) (string, error)
	Save(ctx context.Context, id string) error
}

type Users struct {
	Store UserStore
	mu    sync.Mutex
}

// Get reaches the interface through a helper; the store's method has two
// blocking calls of the same rule, the remote one named first.
func (u *Users) Get(w http.ResponseWriter, r *http.Request) {
	u.load("1") // reports: `^\(\*Users\).Get calls api.\(\*Users\).load → u.Store.User \(api.UserStore, bound to \*store.SQL in app.Routes\) → store.\(\*SQL\).User → net/http.Get, which blocks.*; also reaches api.\(\*Users\).load → u.Store.User \(api.UserStore, bound to \*store.SQL in app.Routes\) → store.\(\*SQL\).User → database/sql.\(\*DB\).QueryRow at store.go:20:9 \(SIO001\)$`
}

func (u *Users) load(id string) { _, _ = u.Store.User(id) }

// Put holds the lock across context-aware I/O behind the interface.
func (u *Users) Put(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	defer u.mu.Unlock()
	_ = u.Store.Save(r.Context(), "1") // reports: `^\(\*Users\).Put calls u.Store.Save \(api.UserStore, bound to \*store.SQL in app.Routes\) → store.\(\*SQL\).Save → database/sql.\(\*DB\).ExecContext, which does I/O while u.mu \(locked at api.go:\d+\) is held; .*\(SIO003\)$`
}

// Quiet's ignore travels with the interface call.
func (u *Users) Quiet(w http.ResponseWriter, r *http.Request) {
	//syncio:ignore SIO001 -- a documented slow admin endpoint
	_, _ = u.Store.User("2")
}

// Pair's helper makes two interface calls: one diagnostic at the
// handler's call for the rule, the other call's operations listed.
type Pair struct {
	Store UserStore
	DB    HealthDB
}

func (p *Pair) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.check() // reports: `^\(\*Pair\).ServeHTTP calls api.\(\*Pair\).check → p.Store.User \(api.UserStore, bound to \*store.SQL in app.Routes\) → store.\(\*SQL\).User → net/http.Get, which blocks.*; also reaches api.\(\*Pair\).check → p.DB.Ping .*database/sql.\(\*DB\).Ping at store.go:\d+:\d+, .*database/sql.\(\*DB\).QueryRow at store.go:\d+:\d+ \(SIO001\)$`
}

func (p *Pair) check() {
	_ = p.DB.Ping()
	_, _ = p.Store.User("1")
}

type Lookuper interface{ Lookup(id string) error }

type Lookup struct{ S Lookuper }

// ServeHTTP goes through two interfaces: Lookuper, then service.Repo.
func (l Lookup) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = l.S.Lookup("1") // reports: `^Lookup.ServeHTTP calls l.S.Lookup \(api.Lookuper, bound to \*service.Service in app.Routes\) → service.\(\*Service\).Lookup → s.Repo.Find \(service.Repo, bound to \*store.Finder in app.Routes\) → store.\(\*Finder\).Find → database/sql.\(\*DB\).Query, which blocks`
}

type Upload struct {
	Blobs blob.Storage
	mu    sync.Mutex
}

// ServeHTTP holds a lock across a call bound by a factory's return.
func (u *Upload) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.mu.Lock()
	defer u.mu.Unlock()
	_ = u.Blobs.Put("x") // reports: `^\(\*Upload\).ServeHTTP calls u.Blobs.Put \(blob.Storage, bound to \*blob.s3 in blob.New\) → blob.\(\*s3\).Put → net/http.Post, which blocks` `^\(\*Upload\).ServeHTTP calls u.Blobs.Put .* → net/http.Post, which blocks without the request context while u.mu \(locked at api.go:\d+\) is held; .*\(SIO003\)$`
}

type Pinger interface{ Ping() error }

type Ready struct{ P Pinger }

// ServeHTTP's Pinger is bound only to store.Mem, which does not block;
// store.Unused has the method but is never converted.
func (h Ready) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = h.P.Ping()
}

type Auditor interface{ Ping() error }

type Audit struct{ A Auditor }

// ServeHTTP's Auditor is given a HealthDB value, bound to *store.SQL.
func (h Audit) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = h.A.Ping() // reports: `^Audit.ServeHTTP calls h.A.Ping \(api.Auditor, bound to \*store.SQL in app.Routes\) → store.\(\*SQL\).Ping → database/sql.\(\*DB\).Ping, which blocks`
}

type Archive struct{ Blobs blob.Storage }

// ServeHTTP's Storage comes from blob.Open, a tuple return.
func (a Archive) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = a.Blobs.Put("y") // reports: `^Archive.ServeHTTP calls a.Blobs.Put \(blob.Storage, bound to \*blob.s3 in blob.New\) → blob.\(\*s3\).Put → net/http.Post, which blocks.*; also reaches a.Blobs.Put \(blob.Storage, bound to \*blob.gcs in blob.Open\) → blob.\(\*gcs\).Put → net/http.Get at blob.go:\d+:\d+ \(SIO001\)$`
}
