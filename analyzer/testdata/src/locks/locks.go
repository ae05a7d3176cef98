package locks

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"locks/store"
)

var (
	mu    sync.Mutex
	rw    sync.RWMutex
	cache = map[string]string{}
	db    = &store.Cache{}
	rdb   = redis.NewClient(&redis.Options{})
)

type guarded struct {
	sync.Mutex
	n int
}

var g guarded

// Deferred holds mu for the whole handler, across a context-less call.
func Deferred(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	_, _ = http.Get("http://x") // want `^net/http.Get blocks without` `^net/http.Get blocks without the request context while mu \(locked at locks.go:31\) is held; every request that needs the lock queues behind this I/O.*\(SIO003\)$`
}

// CtxAwareUnderLock does I/O that honours the context, but under a read lock.
func CtxAwareUnderLock(w http.ResponseWriter, r *http.Request) {
	rw.RLock()
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://x", nil)
	_, _ = http.DefaultClient.Do(req) // want `^net/http.\(\*Client\).Do does I/O while rw \(read-locked at locks.go:38\) is held; readers still run together, but a writer waiting.*\(SIO003\)$` `\(SIO008\)$`
	rw.RUnlock()
}

// Embedded locks a struct embedding sync.Mutex and sleeps under it.
func Embedded(w http.ResponseWriter, r *http.Request) {
	g.Lock()
	g.n++
	time.Sleep(time.Millisecond) // want `time.Sleep waits` `^time.Sleep waits with no way to cancel it while g \(locked at locks.go:46\) is held.*\(SIO003\)$`
	g.Unlock()
}

// UnlockedFirst releases the lock before the I/O: fine.
func UnlockedFirst(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	v := cache["k"]
	mu.Unlock()
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, v, nil)
	_, _ = http.DefaultClient.Do(req) // want `\(SIO008\)$`
}

// InMemory only touches memory under the lock: fine.
func InMemory(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	cache["k"] = r.URL.Path
	_ = db.Size()
}

// ViaHelper holds mu while a helper does I/O: reported at the call.
func ViaHelper(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	_ = load(r.Context()) // want `^ViaHelper calls locks.load → net/http.\(\*Client\).Do, which does I/O while mu \(locked at locks.go:71\) is held` `\(SIO008\)$`
}

func load(ctx context.Context) error { // want load:`^blocks\(SIO008: net/http\.\(\*Client\)\.Do\) \+ io\(net/http\.\(\*Client\)\.Do\)$`
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://x", nil)
	_, err := http.DefaultClient.Do(req)
	return err
}

// HelperLocks calls a helper in another package that locks around I/O.
func HelperLocks(w http.ResponseWriter, r *http.Request) {
	_ = db.Refresh(r.Context(), "http://x") // want `^HelperLocks calls store.\(\*Cache\).Refresh → net/http.\(\*Client\).Do, which does I/O while c.mu \(locked at store.go:19\) is held.*\(SIO003\)$`
}

// Suppressed documents a lock that is held on purpose.
func Suppressed(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	//syncio:ignore SIO003 -- single-writer migration endpoint, one at a time by design
	_ = db.Refresh(r.Context(), "http://x")
}

// EarlyReturn unlocks in a branch and at the end; the I/O after the
// branch is still under the lock.
func EarlyReturn(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	if cache["k"] == "" {
		mu.Unlock()
		return
	}
	_ = load(r.Context()) // want `^EarlyReturn calls locks.load → .*mu \(locked at locks.go:98\) is held` `\(SIO008\)$`
	mu.Unlock()
}

// SDKUnderLock calls a third-party client that takes ctx: presumed I/O.
func SDKUnderLock(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	_ = rdb.Get(r.Context(), "k") // want `^redis.\(\*Client\).Get does I/O while mu \(locked at locks.go:1[0-9][0-9]\) is held`
}

// group reduces golang.org/x/sync/singleflight.Group: Do releases the
// group's mutex in the branch that waits for an earlier call, so the wait
// is SIO005 but no lock is held across it.
type group struct {
	mu sync.Mutex
	m  map[string]*call
}

type call struct {
	wg  sync.WaitGroup
	val string
}

func (g *group) Do(key string, fn func() string) string { // want Do:`blocks\(SIO005: sync.\(\*WaitGroup\).Wait\)` Do:`^calls\(1\)$`
	g.mu.Lock()
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := new(call)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()
	c.val = fn()
	c.wg.Done()
	return c.val
}

var flight = &group{m: map[string]*call{}}

// Dedup waits through the group: SIO005 only, no SIO003.
func Dedup(w http.ResponseWriter, r *http.Request) {
	_ = flight.Do("k", func() string { return "v" }) // want `^Dedup calls locks.\(\*group\).Do → sync.\(\*WaitGroup\).Wait, which waits with no way to cancel it;.*\(SIO005\)$`
}

// Relock releases the lock in a branch, waits, and takes it again: the
// wait is outside the lock, the I/O after the Lock is under it.
func Relock(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	defer mu.Unlock()
	if cache["k"] == "" {
		mu.Unlock()
		time.Sleep(time.Millisecond) // want `^time.Sleep waits with no way to cancel it;.*\(SIO005\)$`
		mu.Lock()
		_, _ = http.Get("http://x") // want `^net/http.Get blocks without` `^net/http.Get blocks without the request context while mu \(locked at locks.go:[0-9]+\) is held.*\(SIO003\)$`
	}
}

// BranchDefer takes the lock with a deferred Unlock inside a branch that
// returns: the I/O after the branch is not under the lock.
func BranchDefer(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Has("serial") {
		mu.Lock()
		defer mu.Unlock()
		_, _ = http.Get("http://upstream") // want `net/http.Get blocks without the request context while mu` `net/http.Get blocks without the request context;`
		return
	}
	_, _ = http.Get("http://upstream") // want `^net/http.Get blocks without the request context; use`
}

// byValue is used through a value receiver: every call locks its own copy
// of mu, so no request waits on another (go vet's copylocks reports the
// copy); the call is still SIO001, and no SIO003.
type byValue struct {
	mu    sync.Mutex
	inner struct{ mu sync.Mutex }
}

func (b byValue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	_, _ = http.Get("http://example.com") // want `net/http.Get blocks without the request context; use`
	b.mu.Unlock()
	b.inner.mu.Lock()
	_, _ = http.Get("http://example.com") // want `net/http.Get blocks without the request context; use`
	b.inner.mu.Unlock()
}

// byPointer shares mu between requests: SIO003.
type byPointer struct{ mu sync.Mutex }

func (b *byPointer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	_, _ = http.Get("http://example.com") // want `net/http.Get blocks without the request context; use` `net/http.Get blocks without the request context while b.mu \(locked at locks.go:\d+\) is held`
	b.mu.Unlock()
}

// Shared locks, in a literal run on the spot, a mutex of the enclosing
// function: the literal's lock is not a copy of its own.
func Shared(w http.ResponseWriter, r *http.Request) {
	var local sync.Mutex
	func() {
		local.Lock()
		_, _ = http.Get("http://example.com") // want `net/http.Get blocks without the request context; use` `net/http.Get blocks without the request context while local \(locked at locks.go:\d+\) is held`
		local.Unlock()
	}()
}

// queue is fed under its lock: the send waits for a reader while every
// request that needs mu waits behind it (SIO005 and SIO003, whose hint
// is about waiting, not about caching a load).
type queue struct {
	mu sync.Mutex
	ch chan string
}

func (q *queue) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q.mu.Lock()
	q.ch <- r.URL.Path // want `SIO005` `channel send waits .*while q.mu \(locked at locks.go:\d+\) is held; every request that needs the lock queues behind this wait`
	q.mu.Unlock()
}
