// Package rpc is an RPC client whose methods reach the transport through
// an interface embedded in the client struct (aria2's client embeds its
// caller): c.Call is c.caller.Call.
package rpc

import (
	"net/http"
	"strings"
)

type Client interface {
	GetVersion() (string, error)
	Ping() error
}

type caller interface {
	Call(method string) error
}

type httpCaller struct {
	uri string
	c   *http.Client
}

func (h httpCaller) Call(method string) error {
	r, err := h.c.Post(h.uri, "application/json", strings.NewReader(method))
	if err != nil {
		return err
	}
	return r.Body.Close()
}

// client embeds caller: its GetVersion calls the promoted method.
type client struct {
	caller
	token string
}

// named holds the same interface in a named field.
type named struct {
	cl caller
}

func New(uri string) Client {
	var cl caller = httpCaller{uri: uri, c: http.DefaultClient}
	return &client{caller: cl}
}

func NewNamed(uri string) *named {
	return &named{cl: httpCaller{uri: uri, c: http.DefaultClient}}
}

func (c *client) GetVersion() (string, error) {
	return "", c.Call("aria2.getVersion")
}

func (c *client) Ping() error { return nil }

func (n *named) GetVersion() (string, error) {
	return "", n.cl.Call("aria2.getVersion")
}

// quiet is only ever bound to a type that does no I/O.
type quiet interface {
	Call(method string) error
}

type memCaller struct{}

func (memCaller) Call(string) error { return nil }

type local struct {
	quiet
}

func NewLocal() *local { return &local{quiet: memCaller{}} }

func (l *local) GetVersion() (string, error) { return "", l.Call("x") }
