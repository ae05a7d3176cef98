// Package app stores its functions into the router's slots: the first
// package that sees both the calls and what is stored.
package app

import (
	"net"
	"net/http"
	"time"

	"stored/hook"
	"stored/router"
)

func Register(g *router.Group) {
	g.GET("/users", listUsers)
	g.Use(authenticate)
	g.Format("json", encodeRemote)
	router.Audit = auditSlowly
	g.OnClose = closeSlowly // called by Close only: no request path
	g.Hooks.Bind(&hook.Handler[*router.Event]{ID: "dns", Func: func(e *router.Event) error {
		_, _ = net.LookupHost("example.com")
		return e.Next()
	}})
	g.Terminate.Bind(&hook.Handler[*router.TermEvent]{ID: "bye", Func: func(e *router.TermEvent) error {
		_, _ = http.Head("http://shutdown")
		return e.Next()
	}})
	g.Notify = router.NewNotifier(notifySlowly)
}

func notifySlowly(path string) { time.Sleep(time.Second) }

// Fast and Slow are two workflows whose router.Services.Profile is filled
// at two places; only Slow's blocks.
var Fast, Slow = router.NewWorkflow(router.Services{Profile: func() error { return nil }}),
	router.NewWorkflow(router.Services{Profile: func() error { time.Sleep(time.Second); return nil }})

// FastOrder runs the workflow that does not block: silent. (SlowOrder's
// path is not followed either: the join cannot tell the two values apart.)
func FastOrder(w http.ResponseWriter, r *http.Request) { _ = Fast.Run() }

func SlowOrder(w http.ResponseWriter, r *http.Request) { _ = Slow.Run() }

func listUsers(e *router.Event) error {
	_, err := http.Get("http://users") // reports: `^net/http.Get blocks without the request context.*\(SIO001\)$`
	return err
}

func authenticate(e *router.Event) { _, _ = net.Dial("tcp", "auth:1") } // reports: `^net.Dial blocks without the request context.*\(SIO001\)$`

func encodeRemote(v any) ([]byte, error) {
	_, err := http.Post("http://encoder", "application/json", nil) // reports: `^net/http.Post blocks without the request context.*\(SIO001\)$`
	return nil, err
}

func auditSlowly(path string) { time.Sleep(time.Second) } // reports: `^time.Sleep waits with no way to cancel it.*\(SIO005\)$`

func closeSlowly() { _, _ = http.Head("http://goodbye") }
