// Package router keeps its routes' handlers, middlewares and callbacks in
// struct fields, a map, a slice and a package variable, and calls them
// when a request comes. It never sees what is stored there: app stores
// it, and the join in app reports here, at the root's calls.
package router

import (
	"net/http"

	"stored/hook"
)

type Event struct {
	hook.Event
	W http.ResponseWriter
	R *http.Request
}

type Route struct {
	Path   string
	Action func(*Event) error
}

type Group struct {
	routes  []*Route
	before  []func(*Event)
	formats map[string]func(any) ([]byte, error)
	Hooks   hook.Hook[*Event]
	// Terminate's handlers run at shutdown: the same generic
	// hook.Handler[T].Func as Hooks', in another instantiation.
	Terminate hook.Hook[*TermEvent]
	// OnClose runs when the group is closed, never on a request.
	OnClose func()
	// Notify is one value whose Send the program fills at one place.
	Notify Notifier
}

type TermEvent struct{ hook.Event }

type Notifier struct{ Send func(path string) }

// NewNotifier stores its parameter: its callers' arguments are where
// Notifier.Send is filled.
func NewNotifier(send func(path string)) Notifier { return Notifier{Send: send} }

// Services are one workflow's functions; the program fills two values of
// it at two places, and a workflow calls only its own.
type Services struct{ Profile func() error }

type Workflow struct{ svc Services }

func NewWorkflow(svc Services) *Workflow { return &Workflow{svc: svc} }

func (w *Workflow) Run() error { return w.svc.Profile() }

// Audit, when set, is told every request's path.
var Audit func(path string)

// GET stores action in a Route, through add.
func (g *Group) GET(path string, action func(*Event) error) { g.add(path, action) }

func (g *Group) add(path string, action func(*Event) error) {
	g.routes = append(g.routes, &Route{Path: path, Action: action})
}

// Use appends middlewares to a slice field.
func (g *Group) Use(fs ...func(*Event)) { g.before = append(g.before, fs...) }

// Format keeps an encoder in a map field.
func (g *Group) Format(name string, f func(any) ([]byte, error)) {
	if g.formats == nil {
		g.formats = map[string]func(any) ([]byte, error){}
	}
	g.formats[name] = f
}

func (g *Group) Close() {
	if g.OnClose != nil {
		g.OnClose()
	}
}

func (g *Group) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e := &Event{W: w, R: r}
	for _, f := range g.before {
		f(e)
	}
	if g.Notify.Send != nil {
		g.Notify.Send(r.URL.Path) // reports: `^\(\*Group\).ServeHTTP calls g.Notify.Send \(via the func stored in router.Notifier.Send by app.Register\) → app.notifySlowly → time.Sleep, which waits.*\(SIO005\)$`
	}
	if Audit != nil {
		Audit(r.URL.Path)
	}
	_, _ = g.formats["json"](nil)
	for _, rt := range g.routes {
		if rt.Path == r.URL.Path {
			_ = rt.Action(e)
		}
	}
}

// Chain is the hook chain's shape: the route's action is a one-off
// handler after the middlewares bound to the hook.
type Chain struct{ G *Group }

func (c Chain) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e := &Event{W: w, R: r}
	// hook.Handler[T].Func is a generic type's field: not a slot, so
	// neither the middleware bound to Hooks (a miss) nor the handler bound
	// to Terminate (which never runs on a request) is followed.
	_ = c.G.Hooks.Trigger(e, c.G.routes[0].Action)
}
