package api

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncio/syncio/api/pool"
)

// bodyHoldsWorker lists the routes that read their body holding a worker,
// on purpose, and why. Every other route with a body must hold none while
// it arrives (TestSlowBodyHoldsNoWorker).
var bodyHoldsWorker = map[string]string{}

// bodyMethods are the methods whose requests carry a body.
var bodyMethods = map[string]bool{http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true}

// concretePath fills a gin route's parameters (":id", "*name") with a value.
func concretePath(route string) string {
	parts := strings.Split(route, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "*") {
			parts[i] = "x"
		}
	}
	return strings.Join(parts, "/")
}

// TestSlowBodyHoldsNoWorker takes every route the router has with a body
// method, so a route added later is covered without touching the test.
// With one worker, it starts a request whose body stalls after one byte
// (the server has asked for it: "Expect: 100-continue" is answered when
// the handler first reads the body) and shows that the worker is free and
// another request that needs it is served while that body is still
// arriving. Routes in bodyHoldsWorker are shown to hold it instead, so an
// entry there cannot outlive the reason for it.
func TestSlowBodyHoldsNoWorker(t *testing.T) {
	cfg := testConfig()
	cfg.Workers, cfg.Queue = 1, 8
	cfg.BodyTimeout, cfg.ReadTimeout = time.Minute, time.Hour // the slow bodies outlast the test
	s := startServer(t, cfg)

	var routes []gin.RouteInfo
	for _, ri := range s.http.Handler.(*gin.Engine).Routes() {
		if bodyMethods[ri.Method] {
			routes = append(routes, ri)
		}
	}
	if len(routes) < 4 {
		t.Fatalf("found %d routes with a body method, want the API's four or more: %+v", len(routes), routes)
	}
	for _, ri := range routes {
		key := ri.Method + " " + ri.Path
		t.Run(key, func(t *testing.T) {
			waitPool(t, s, "the pool idle before the route", func(st pool.Stats) bool { return st.Busy == 0 && st.Queued == 0 })
			conn := rawRequest(t, s, ri.Method+" "+concretePath(ri.Path)+" HTTP/1.1\r\nHost: x\r\n"+
				"Content-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n", "")
			if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("waiting for the server to ask for the body: %v", err)
			}
			if resp.StatusCode != http.StatusContinue {
				// Answered without reading the body: nothing waits for it.
				_ = resp.Body.Close()
				t.Logf("%s answered %d without reading its body", key, resp.StatusCode)
				return
			}
			if _, err := io.WriteString(conn, "{"); err != nil {
				t.Fatal(err)
			}
			if why, ok := bodyHoldsWorker[key]; ok {
				waitPool(t, s, key+" holding its worker while its body arrives (listed in bodyHoldsWorker; "+
					"if it no longer does, remove it there)", func(st pool.Stats) bool { return st.Busy == 1 })
				t.Logf("holds its worker on purpose: %s", why)
			} else {
				waitPool(t, s, "no worker held while the body of "+key+" arrives", func(st pool.Stats) bool {
					return st.Busy == 0 && st.Queued == 0
				})
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				r, err := fetch(ctx, http.MethodGet, s.URL()+"/api/sync/profile", nil)
				if err != nil || r.status != http.StatusOK {
					t.Errorf("GET /api/sync/profile while the body of %s arrives: %d %s %v", key, r.status, r.body, err)
				}
			}
			_ = conn.Close() // the handler's read fails, and it gives back what it held
			waitPool(t, s, "the pool idle after the client left", func(st pool.Stats) bool { return st.Busy == 0 && st.Queued == 0 })
		})
	}
}

// TestOrderReadsAreBounded: order bodies are read before admission, so the
// pool no longer bounds them; past maxOrderReads arriving at once (1 here)
// an order is answered 503 queue_full with Retry-After at once, and once
// the slow body's client leaves, orders run again.
func TestOrderReadsAreBounded(t *testing.T) {
	cfg := testConfig()
	cfg.BodyTimeout, cfg.ReadTimeout = time.Minute, time.Hour
	s := startServer(t, cfg)
	s.app.orders.reads = make(chan struct{}, 1) // before any request reads it

	slow := rawRequest(t, s, "POST /api/async/order HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n", "{")
	for deadline := time.Now().Add(10 * time.Second); len(s.app.orders.reads) != 1; {
		if time.Now().After(deadline) {
			t.Fatal("the slow order body never started to be read")
		}
		time.Sleep(time.Millisecond)
	}
	r, err := postOrder(context.Background(), s, "sync", orderBody("READS-1"))
	if err != nil || r.status != http.StatusServiceUnavailable || documentedError(t, r) != codeQueueFull || r.header.Get("Retry-After") == "" {
		t.Errorf("an order past the bound on order reads: %d %s %v, want 503 %s with Retry-After", r.status, r.body, err, codeQueueFull)
	}
	if got := metricValue(t, s, "syncio_order_reads_rejected_total"); got != 1 {
		t.Errorf("syncio_order_reads_rejected_total = %v, want 1", got)
	}
	_ = slow.Close()
	for deadline := time.Now().Add(10 * time.Second); len(s.app.orders.reads) != 0; {
		if time.Now().After(deadline) {
			t.Fatal("the slow order's read was not given back when its client left")
		}
		time.Sleep(time.Millisecond)
	}
	if r, err := postOrder(context.Background(), s, "sync", orderBody("READS-1")); err != nil || r.status != http.StatusCreated {
		t.Errorf("an order once the slow client left: %d %s %v, want 201", r.status, r.body, err)
	}
}
