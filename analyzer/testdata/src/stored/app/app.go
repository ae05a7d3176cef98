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
}

func listUsers(e *router.Event) error {
	_, err := http.Get("http://users")
	return err
}

func authenticate(e *router.Event) { _, _ = net.Dial("tcp", "auth:1") }

func encodeRemote(v any) ([]byte, error) {
	_, err := http.Post("http://encoder", "application/json", nil)
	return nil, err
}

func auditSlowly(path string) { time.Sleep(time.Second) }

func closeSlowly() { _, _ = http.Head("http://goodbye") }
