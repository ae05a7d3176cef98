// want package:`pending\(2\)` package:`carried\(1\)`
// Package app has handlers calling vendored libraries: library channels
// and interface methods given Background() are not findings, while a
// library's time.Sleep, a library's static call given Background() and the
// module's own channel send still are. Issue 10: a library helper giving
// its NewRequest the context later, and library joins over computation,
// are silent; library joins over I/O and the module's own joins are not.
// The libraries' interface calls travel up as pending calls too (two
// pending: the module's own and a library's), dispatched only to types the
// module converts, which it converts none to here.
package app

import (
	"net/http"

	"example.com/lib/claims"
	"example.com/lib/cmap"
	"example.com/lib/fanout"
	"example.com/lib/httpc"
	"example.com/lib/orm"
	"example.com/lib/pool"
	"example.com/lib/qr"
	"example.com/lib/resize"
	"example.com/lib/retry"
	"example.com/lib/token"
	"github.com/gomodule/redigo/redis"
	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/singleflight"
)

var (
	p      = &pool.Pool{MaxActive: 4, Wait: true}
	db     = &orm.DB{}
	events = make(chan string)
	hc     = &httpc.Client{HC: http.DefaultClient}
	tokens = &token.Source{Key: []byte("k")}
	sf     singleflight.Group
	up     = &fanout.Uploader{}
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

// Joins in dependencies (class 5 of issue 10): waits over goroutines that
// only compute are silent, waits over I/O stay SIO005.
func Joins(w http.ResponseWriter, r *http.Request) {
	_ = resize.Resize(&resize.Image{W: 4, H: 4, Pix: make([]byte, 16)}, 2, 2)
	resize.Copy(make([]byte, 4), []byte("abcd"), false)
	resize.Hash([][]byte{{1}, {2}})
	_ = tokens.Signed("sub=1")
	_ = fanout.Sums([][]int{{1}, {2}})
	_ = tokens.Refresh(r)                   // want `Joins calls token.\(\*Source\).Refresh → golang.org/x/sync/singleflight.\(\*Group\).Do, which waits with no way to cancel it`
	fanout.GetAll([]*http.Request{r})       // want `Joins calls fanout.GetAll → sync.\(\*WaitGroup\).Wait, which waits`
	_ = fanout.FetchAll([]*http.Request{r}) // want `Joins calls fanout.FetchAll → golang.org/x/sync/errgroup.\(\*Group\).Wait, which waits`
	up.Flush()                              // want `Joins calls fanout.\(\*Uploader\).Flush → sync.\(\*WaitGroup\).Wait, which waits`
	fanout.Run(func() {})                   // want `Joins calls fanout.Run → sync.\(\*WaitGroup\).Wait, which waits`
	cache.Store("k", "v")                   // a dependency's sync.Cond: its own in-memory wait
	enc.Reset()                             // joins workers that only compute
	dec.Reset([]byte("x"))                  // joins a worker that only decodes
}

var dec = &fanout.Decoder{}

var enc = &fanout.Encoder{}

var cache = cmap.New()

// OwnJoins: the module's own errgroup joining work that ignores no
// context is silent (fanoutjoins in testdata/src has the flagged cases);
// a singleflight waiter still cannot cancel its wait.
func OwnJoins(w http.ResponseWriter, r *http.Request) {
	var g errgroup.Group
	g.Go(func() error { return nil })
	_ = g.Wait()
	_, _, _ = sf.Do("k", func() (any, error) { return 1, nil }) // want `^golang.org/x/sync/singleflight.\(\*Group\).Do waits with no way to cancel it`
}

var rpool = &redis.Pool{}

// Redis: the caller's Do is a round trip it cannot cancel; the pooled
// connection's Close is the library's own flush through its own interface.
func Redis(w http.ResponseWriter, r *http.Request) {
	conn := rpool.Get() // want `redis.\(\*Pool\).Get takes a pooled Redis connection`
	defer conn.Close()
	_, _ = conn.Do("GET", "k") // want `redis.Conn.Do does a Redis round trip`
}
