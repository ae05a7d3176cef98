// want package:`convs\(2\)` package:`joined\(1\)` package:`pending\(1\)`
package main

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"time"
)

var (
	db     *sql.DB
	client = &http.Client{}
)

// Direct holds one of each SIO001 and SIO005 operation.
func Direct(w http.ResponseWriter, r *http.Request) {
	resp, err := http.Get("http://example.com") // want `^net/http.Get blocks without the request context; use http.NewRequestWithContext\(ctx, http.MethodGet, url, nil\) and http.DefaultClient.Do\(req\) \(SIO001\)$`
	_, _ = resp, err
	_, _ = client.Post("http://example.com", "text/plain", nil) // want `net/http.\(\*Client\).Post blocks without the request context`
	_, _ = http.NewRequest("GET", "/", nil)                     // want `net/http.NewRequest builds a request without the request context; use http.NewRequestWithContext\(ctx, ...\) \(SIO001\)`
	_, _ = net.Dial("tcp", "x:1")                               // want `net.Dial blocks .*DialContext`
	_, _ = net.LookupHost("example.com")                        // want `net.LookupHost blocks .*net.DefaultResolver.LookupHost`
	_, _ = tls.Dial("tcp", "x:1", nil)                          // want `crypto/tls.Dial blocks`
	var tc *tls.Conn
	_ = tc.Handshake()              // want `crypto/tls.\(\*Conn\).Handshake blocks .*HandshakeContext`
	rows, _ := db.Query("SELECT 1") // want `database/sql.\(\*DB\).Query blocks .*db.QueryContext`
	_ = rows
	tx, _ := db.Begin()      // want `database/sql.\(\*DB\).Begin blocks .*BeginTx\(ctx, nil\)`
	_, _ = tx.Exec("DELETE") // want `database/sql.\(\*Tx\).Exec blocks`
	var st *sql.Stmt
	_ = st.QueryRow(1)           // want `database/sql.\(\*Stmt\).QueryRow blocks`
	_ = exec.Command("ls").Run() // want `os/exec.Command starts a process the request cannot cancel; use exec.CommandContext` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	time.Sleep(time.Second)      // want `^time.Sleep waits with no way to cancel it; .* \(SIO005\)$` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	var wg sync.WaitGroup
	wg.Wait() // want `sync.\(\*WaitGroup\).Wait waits` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	cond := sync.NewCond(&sync.Mutex{})
	cond.Wait() // want `sync.\(\*Cond\).Wait waits` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	ch := make(chan int)
	ch <- 1        // want `channel send waits with no ctx.Done\(\) escape` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	<-ch           // want `channel receive waits` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	for range ch { // want `range over channel waits` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	}
	select { // want `select has no ctx.Done\(\) case and no default` `while transaction tx \(begun at direct.go:33\) is open.*\(SIO007\)$`
	case v := <-ch:
		_ = v
	case <-time.After(time.Second):
	}
}

// Clean is a handler that does everything right.
func Clean(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	rows, _ := db.QueryContext(ctx, "SELECT 1")
	_ = rows
	tctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, _ = db.ExecContext(tctx, "UPDATE")
	_, _ = db.ExecContext(context.WithoutCancel(ctx), "INSERT audit") // deliberate detach
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "/", nil)
	_, _ = client.Do(req) // want `\(SIO008\)$`
	ch := make(chan int)
	select {
	case v := <-ch:
		_ = v
	case <-time.After(time.Second):
	case <-ctx.Done():
	}
	select {
	case ch <- 1:
	default:
	}
	<-r.Context().Done()
	done := ctx.Done()
	select {
	case v := <-ch:
		_ = v
	case <-done:
	}
	go func() {
		_, _ = http.Get("http://example.com") // off the request path
		time.Sleep(time.Second)
	}()
	go fetch("http://example.com")
	var f fetcher = impl{}
	f.Fetch() // want `^Clean calls f.Fetch \(nethttp.fetcher, bound to main.impl in main.Clean\) → main.impl.Fetch → net/http.Get, which blocks without the request context`
	fn := fetch
	fn("x") // want `^Clean calls main.fetch → net/http.Get, which blocks without the request context`
	s := server{ctx: context.Background()}
	_, _ = db.QueryContext(s.ctx, "SELECT 1") // a field: unknown origin, not flagged
}

// Dropped gives ctx-accepting calls contexts that do not come from the request.
func Dropped(w http.ResponseWriter, r *http.Request) {
	_, _ = db.QueryContext(context.Background(), "SELECT 1") // want `^database/sql.\(\*DB\).QueryContext is given context.Background\(\) instead of the request context; pass the request's context, or context.WithoutCancel\(ctx\) for work that must outlive the request \(SIO002\)$`
	ctx := context.TODO()
	_, _ = db.ExecContext(ctx, "UPDATE") // want `ExecContext is given ctx \(context.TODO\(\)\) instead of the request context`
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = withCtx(tctx) // want `^nethttp.withCtx is given tctx \(a context derived from context.Background\(\)\) instead of the request context; .*\(SIO002\)$`
}

type fetcher interface{ Fetch() }

type impl struct{}

func (impl) Fetch() { _, _ = http.Get("http://example.com") } // want Fetch:`blocks\(SIO001: net/http.Get\)`

type server struct{ ctx context.Context }

// ServeHTTP is a root as a method too.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = lookup() // want `^\(\*server\).ServeHTTP calls main.lookup → main.fetch → net/http.Get, which blocks without the request context; .* \(SIO001\)$`
	_ = withCtx(r.Context())
	_ = dropper() // want `calls main.dropper → database/sql.\(\*DB\).PingContext, which is given context.Background\(\) instead of the request context.* \(SIO002\)$`
	_ = waiter()  // want `calls main.waiter → time.Sleep, which waits with no way to cancel it.* \(SIO005\)$`
	recurse(3)    // want `calls main.recurse → net/http.Get`
	ping(1)       // clean mutual recursion terminates
	s.method()    // want `calls main.\(\*server\).method → main.fetch → net/http.Get`
	Direct(w, r)  // a root calling a root: reported inside Direct only
}

// lookup calls a helper defined later in the file.
func lookup() error { return fetch("http://example.com") } // want lookup:`blocks\(SIO001: main.fetch → net/http.Get\)`

func fetch(u string) error { // want fetch:`blocks\(SIO001: net/http.Get\)`
	_, err := http.Get(u)
	return err
}

// withCtx passes its ctx on, so it is clean when given the request context.
func withCtx(ctx context.Context) error { // want withCtx:`^io\(database/sql.\(\*DB\).QueryContext\)$`
	_, err := db.QueryContext(ctx, "SELECT 1")
	return err
}

func dropper() error { return db.PingContext(context.Background()) } // want dropper:`blocks\(SIO002: database/sql.\(\*DB\).PingContext\)`

func waiter() error { // want waiter:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Millisecond)
	return nil
}

func recurse(n int) { // want recurse:`blocks\(SIO001: net/http.Get\)`
	if n == 0 {
		_, _ = http.Get("http://example.com")
		return
	}
	recurse(n - 1)
}

func ping(n int) {
	if n > 0 {
		pong(n - 1)
	}
}

func pong(n int) { ping(n) }

func (s *server) method() { _ = fetch("x") } // want method:`blocks\(SIO001: main.fetch → net/http.Get\)`

func main() {
	_, _ = http.Get("http://example.com") // not a request path
	time.Sleep(time.Second)
	http.HandleFunc("/x", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Second) // want `time.Sleep waits`
	})
	mux := http.NewServeMux()
	mux.Handle("/y", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = fetch("x") // want `^func literal calls main.fetch → net/http.Get`
	}))
}

func init() { _, _ = http.Get("http://example.com") }

// Generics in one package: a generic function and a method of a generic
// type, called through instantiations.
func firstOf[T any](xs []T) T { // want firstOf:`blocks\(SIO005: time.Sleep\)`
	time.Sleep(time.Millisecond)
	return xs[0]
}

type cache[K comparable, V any] struct{ m map[K]V }

func (c *cache[K, V]) load(k K) V { // want load:`blocks\(SIO005: main.firstOf → time.Sleep\)`
	return firstOf([]V{c.m[k]})
}

func Generic(w http.ResponseWriter, r *http.Request) {
	_ = firstOf[int]([]int{1}) // want `^Generic calls main.firstOf → time.Sleep, which waits`
	c := &cache[string, int]{}
	_ = c.load("k") // want `^Generic calls main.\(\*cache\).load → main.firstOf → time.Sleep, which waits`
}

var slot = make(chan []string, 1)

// Slot takes the channel's only element and puts it back: no wait.
func Slot(w http.ResponseWriter, r *http.Request) {
	select {
	case q := <-slot:
		slot <- append(q, "x")
	default:
		slot <- []string{"x"}
	}
	other := make(chan int)
	select {
	case <-slot:
		other <- 1 // want `channel send waits`
	default:
	}
}

var sem = make(chan struct{}, 4)

// Semaphore takes a slot (a wait the request cannot cancel) and gives it
// back: the release finds the element the send put there, so only the
// take is reported.
func Semaphore(w http.ResponseWriter, r *http.Request) {
	sem <- struct{}{} // want `channel send waits`
	defer func() { <-sem }()
	_, _ = w.Write(nil)
}

// SemaphoreSelect takes its slot in a select on the request's context,
// and gives it back.
func SemaphoreSelect(w http.ResponseWriter, r *http.Request) {
	select {
	case sem <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	defer func() { <-sem }()
	_, _ = w.Write(nil)
}

// Reply receives on a channel it never sent on: a wait.
func Reply(w http.ResponseWriter, r *http.Request) {
	reply := make(chan int, 1)
	go func() { reply <- 1 }()
	<-reply // want `channel receive waits`
}

// slots is a semaphore with helpers: acquire is the wait, release gives a
// slot back and never waits (issue 21: three false SIO005 in one service).
type slots struct{ sem chan struct{} }

func (s *slots) acquire() { s.sem <- struct{}{} } // want acquire:`blocks\(SIO005: channel send\)`
func (s *slots) release() { <-s.sem }

var pool = &slots{sem: make(chan struct{}, 8)}

func Slots(w http.ResponseWriter, r *http.Request) {
	pool.acquire() // want `Slots calls main.\(\*slots\).acquire → channel send`
	defer pool.release()
	_, _ = w.Write(nil)
}

// bucket is refilled by a ticker loop: taking a token is a wait.
type bucket struct{ tokens chan struct{} }

func (b *bucket) refill() { // want refill:`blocks\(SIO005: channel send\)`
	for {
		b.tokens <- struct{}{}
	}
}

func (b *bucket) take() { <-b.tokens } // want take:`blocks\(SIO005: channel receive\)`

var limiter = &bucket{tokens: make(chan struct{}, 8)}

func Limited(w http.ResponseWriter, r *http.Request) {
	limiter.take() // want `Limited calls main.\(\*bucket\).take → channel receive`
}
