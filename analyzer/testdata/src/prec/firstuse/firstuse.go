// Package firstuse: a getter that builds what it returns on its first
// call and keeps it (a dependency container's DB(), a lazily built client)
// runs the construction once, at start-up or on the first request; the
// requests after it get the kept value. Its I/O is no request path's. A
// value built on every call, or a getter that keeps nothing, stays
// reported.
package firstuse

import (
	"database/sql"
	"net/http"
	"sync"
)

// Deps is a dependency container, built once in main.
type Deps struct {
	db  *sql.DB
	raw *sql.DB
}

// DB builds the pool and migrates on the first call (the guard form).
func (d *Deps) DB() *sql.DB {
	if d.db != nil {
		return d.db
	}
	db, _ := sql.Open("postgres", "")
	_, _ = db.Exec("CREATE TABLE IF NOT EXISTS t (id int)")
	d.db = db
	return d.db
}

// Raw builds it inside an if taken while it is unset.
func (d *Deps) Raw() *sql.DB {
	if d.raw == nil {
		d.raw, _ = sql.Open("postgres", "")
	}
	return d.raw
}

var (
	mu     sync.Mutex
	client *http.Client
)

// Client is a package-level lazily built client, under a lock.
func Client() *http.Client {
	mu.Lock()
	defer mu.Unlock()
	if client == nil {
		client = &http.Client{Transport: &http.Transport{}}
	}
	return client
}

type lazy struct{ db *sql.DB }

// perCall checks a value it builds itself: built on every call.
func perCall() *sql.DB { // want perCall:`^blocks\(SIO004: database/sql.Open\)$`
	l := &lazy{}
	if l.db == nil {
		l.db, _ = sql.Open("postgres", "")
	}
	return l.db
}

// Fresh keeps nothing: a pool on every call.
func (d *Deps) Fresh() *sql.DB { // want Fresh:`^blocks\(SIO004: database/sql.Open\)$`
	if d.db != nil {
		return d.db
	}
	db, _ := sql.Open("postgres", "")
	return db
}

// named checks and assigns its named result: the call's own, no memo
// (gin-vue-admin's DeleteFile reaches its S3 call past such a check).
func named() (err error) { // want named:`^blocks\(SIO001: net/http.Get\)$`
	if err != nil {
		return
	}
	_, err = http.Get("http://example.com")
	return err
}

// session is built per request by the handler below (gin-contrib
// sessions' shape): its Load fills a field on first use, once per request.
type session struct{ data *sql.Rows }

func (s *session) Load(r *http.Request) *sql.Rows { // want Load:`^blocks\(SIO001: database/sql.\(\*DB\).Query\)$`
	if s.data == nil {
		s.data, _ = deps.DB().Query("SELECT 1")
	}
	return s.data
}

// request is a message a framework decodes for each call (bazel-remote's
// SpliceBlobRequest): a field the handler fills when the client left it
// out is filled on every such request.
type request struct{ digest *string }

func decode() *request { return new(request) }

func fill(req *request) { // want fill:`^blocks\(SIO001: net/http.Get\)$`
	if req.digest == nil {
		_, _ = http.Get("http://example.com")
		d := "x"
		req.digest = &d
	}
}

var deps = &Deps{}

func Handler(w http.ResponseWriter, r *http.Request) {
	_, _ = deps.DB().QueryContext(r.Context(), "SELECT 1")
	_, _ = deps.Raw().QueryContext(r.Context(), "SELECT 1")
	_, _ = Client().Get("http://example.com") // want `Get blocks`
	_ = perCall()                             // want `SIO004`
	_ = deps.Fresh()                          // want `SIO004`
	_ = named()                               // want `firstuse.named → net/http.Get, which blocks`
	s := &session{}
	_ = s.Load(r)  // want `Load → database/sql.\(\*DB\).Query, which blocks`
	fill(decode()) // want `firstuse.fill → net/http.Get, which blocks`
}
