// Package app has handlers calling vendored libraries: library channels
// and interface methods given Background() are not findings, while a
// library's time.Sleep, a library's static call given Background() and the
// module's own channel send still are.
package app

import (
	"net/http"

	"example.com/lib/claims"
	"example.com/lib/httpc"
	"example.com/lib/orm"
	"example.com/lib/pool"
	"example.com/lib/qr"
	"example.com/lib/retry"
)

var (
	p      = &pool.Pool{MaxActive: 4, Wait: true}
	db     = &orm.DB{}
	events = make(chan string)
	hc     = &httpc.Client{HC: http.DefaultClient}
)

func Claims(w http.ResponseWriter, r *http.Request) { _ = claims.FromContext(r.Context()) }

func Cache(w http.ResponseWriter, r *http.Request) { _ = p.Get() }

func Poster(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(qr.Encode("x")) }

func Begin(w http.ResponseWriter, r *http.Request) {
	_ = db.Begin() // want `Begin calls orm.\(\*DB\).Begin → orm.\(\*DB\).BeginTx, which is given context.Background\(\)`
}

func Retry(w http.ResponseWriter, r *http.Request) {
	retry.Backoff() // want `Retry calls retry.Backoff → time.Sleep`
}

func Publish(w http.ResponseWriter, r *http.Request) {
	publish("x") // want `Publish calls app.publish → channel send`
}

func publish(s string) { events <- s } // want publish:`blocks\(SIO005: channel send\)`

// Fetch: the library gives its NewRequest the caller's context later
// (class 1 of issue 10); Legacy never does.
func Fetch(w http.ResponseWriter, r *http.Request) {
	_, _ = hc.Get(r.Context(), "http://x")
	_, _ = hc.Legacy("http://x") // want `Fetch calls httpc.\(\*Client\).Legacy → net/http.NewRequest, which builds a request without the request context`
}
