package after_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	detached "github.com/syncio/syncio/examples/remediation/detached/after"
	"github.com/syncio/syncio/examples/remediation/ginctx/after"
	"github.com/syncio/syncio/examples/remediation/ginctx/before"
)

// guard only turns a hang into a failure; no assertion depends on it.
const guard = 30 * time.Second

// roundTripFunc lets the test see the context each outgoing call carries.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// rig is a slow profile service behind a gin route, and a client that
// hangs up while the route's call to the service is in flight.
type rig struct {
	calls     chan context.Context // the context of each call the route makes
	cancelled chan struct{}        // the service saw its request cancelled
	served    chan struct{}        // the service answered, the client being gone
	release   chan struct{}        // lets the service answer
	gone      chan struct{}        // the route's c.Request.Context() ended
}

// start serves handler under a gin engine with the given
// ContextWithFallback, sends one request, waits until the route's call has
// reached the service, hangs the client up, and waits until the server has
// noticed (the route's request context is done).
func start(t *testing.T, fallback bool, handler func(client *http.Client, url string) gin.HandlerFunc) *rig {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	rg := &rig{
		calls:     make(chan context.Context, 1),
		cancelled: make(chan struct{}),
		served:    make(chan struct{}),
		release:   make(chan struct{}),
		gone:      make(chan struct{}),
	}
	arrived := make(chan struct{})
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		select {
		case <-r.Context().Done():
			close(rg.cancelled)
		case <-rg.release:
			_, _ = io.WriteString(w, `{"name":"late"}`)
			close(rg.served)
		}
	}))
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		rg.calls <- r.Context()
		return http.DefaultTransport.RoundTrip(r)
	})}

	e := gin.New()
	e.ContextWithFallback = fallback
	e.GET("/profiles/:id", func(c *gin.Context) {
		reqCtx := c.Request.Context()
		go func() {
			<-reqCtx.Done()
			close(rg.gone)
		}()
		c.Next()
	}, handler(client, service.URL))
	front := httptest.NewServer(e)
	// Cleanups run last-in first-out: release the service, then close
	// the servers (Close waits for their handlers).
	t.Cleanup(service.Close)
	t.Cleanup(front.Close)
	t.Cleanup(func() {
		select {
		case <-rg.release:
		default:
			close(rg.release)
		}
	})

	ctx, hangUp := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, front.URL+"/profiles/7", nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	wait(t, arrived, "the route's call to reach the service")
	hangUp()
	wait(t, rg.gone, "the server to see the client hang up")
	return rg
}

func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(guard):
		t.Fatalf("timed out waiting for %s", what)
	}
}

func beforeHandler(client *http.Client, url string) gin.HandlerFunc {
	return (&before.Proxy{Client: client, ProfileURL: url}).Profile
}

func afterHandler(client *http.Client, url string) gin.HandlerFunc {
	return (&after.Proxy{Client: client, ProfileURL: url, CallTimeout: time.Hour}).Profile
}

// TestGinContextDoesNotCancel: under gin's default, the call given c is
// not cancelled when the client hangs up. Its context has no Done channel
// at all and no error while c.Request.Context() is done, and the service
// answers the call for nobody once it is let go.
func TestGinContextDoesNotCancel(t *testing.T) {
	rg := start(t, false, beforeHandler)
	ctx := <-rg.calls
	if ctx.Done() != nil || ctx.Err() != nil {
		t.Fatalf("the call's context has Done %v and Err %v; gin's default gives nil and nil", ctx.Done(), ctx.Err())
	}
	close(rg.release)
	select {
	case <-rg.served:
	case <-rg.cancelled:
		t.Fatal("the call was cancelled")
	case <-time.After(guard):
		t.Fatal("the service never answered")
	}
}

// TestRequestContextCancels: the same route with c.Request.Context()
// cancels the call when the client hangs up.
func TestRequestContextCancels(t *testing.T) {
	rg := start(t, false, afterHandler)
	ctx := <-rg.calls
	if ctx.Done() == nil {
		t.Fatal("the call's context can never be cancelled")
	}
	wait(t, ctx.Done(), "the call's context to end")
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("the call's context ended with %v, want Canceled", ctx.Err())
	}
	wait(t, rg.cancelled, "the service to see the call cancelled")
}

// TestContextWithFallback: with engine.ContextWithFallback = true, c
// itself reads the request's context, so before's call is cancelled too.
func TestContextWithFallback(t *testing.T) {
	rg := start(t, true, beforeHandler)
	ctx := <-rg.calls
	if ctx.Done() == nil {
		t.Fatal("with ContextWithFallback, c.Done() is still nil")
	}
	wait(t, ctx.Done(), "c to end")
	wait(t, rg.cancelled, "the service to see the call cancelled")
}

// TestNewEngineFallsBack: the engine the example builds has the flag on.
func TestNewEngineFallsBack(t *testing.T) {
	if !after.NewEngine(&after.Proxy{}).ContextWithFallback {
		t.Error("NewEngine leaves ContextWithFallback off")
	}
}

// TestAuditAfterTheResponse: the visit is recorded after the handler has
// returned and gin has reused c for the next request, with the route and
// id it copied out, and a context the request's end did not cancel.
func TestAuditAfterTheResponse(t *testing.T) {
	gin.SetMode(gin.TestMode)
	d := detached.NewDetacher(1, 8, time.Minute, prometheus.NewCounter(prometheus.CounterOpts{Name: "dropped", Help: "Dropped."}))
	release := make(chan struct{})
	type visit struct {
		route, id string
		err       error
	}
	visits := make(chan visit, 2)
	record := func(ctx context.Context, route, id string) {
		<-release
		visits <- visit{route, id, ctx.Err()}
	}
	p := &after.Proxy{}
	e := gin.New()
	e.GET("/visits/:id", func(c *gin.Context) { p.Audit(c, d, record) })
	for _, id := range []string{"1", "2"} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/visits/"+id, nil))
		if rec.Code != http.StatusNoContent {
			t.Fatalf("GET /visits/%s: %d", id, rec.Code)
		}
	}
	close(release)
	for _, want := range []string{"1", "2"} {
		v := <-visits
		if v.route != "/visits/:id" || v.id != want || v.err != nil {
			t.Errorf("visit %+v, want route /visits/:id, id %s, a live context", v, want)
		}
	}
	if err := d.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}
