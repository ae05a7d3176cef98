// Package router is a generic router: a route's handler is kept in a
// field of a generic struct (Route[T].Action), stored through the group's
// registration methods, and called by the one request root, a literal in
// BuildMux, after a type switch over the group's children.
package router

import (
	"net/http"
	"time"

	"genslots/chain"
)

type Event struct {
	chain.Event
	W http.ResponseWriter
	R *http.Request
}

type Route[T any] struct {
	Path   string
	Action func(e T) error
}

type Group[T any] struct{ children []any }

// Route stores action in a Route[T]: its callers' arguments are the
// stores.
func (g *Group[T]) Route(path string, action func(e T) error) *Route[T] {
	rt := &Route[T]{Path: path, Action: action}
	g.children = append(g.children, rt)
	return rt
}

func (g *Group[T]) GET(path string, action func(e T) error) *Route[T] { return g.Route(path, action) }

type Router[T chain.Resolver] struct {
	Group[T]
	factory func(w http.ResponseWriter, r *http.Request) T
}

// New registers a route of the router's own: its action is stored in
// the package of the roots that call the slot, whose fact packages above
// see, not this one, so it is followed through the slot as before and
// reported at the roots' calls (the fallback of slotroots.go).
func New[T chain.Resolver](factory func(w http.ResponseWriter, r *http.Request) T) *Router[T] {
	r := &Router[T]{factory: factory}
	r.GET("/ping", func(e T) error { time.Sleep(time.Second); return nil })
	return r
}

func (r *Router[T]) BuildMux() *http.ServeMux {
	mux := http.NewServeMux()
	for _, child := range r.children {
		switch v := child.(type) {
		case *Route[T]:
			mux.HandleFunc(v.Path, func(w http.ResponseWriter, req *http.Request) {
				_ = v.Action(r.factory(w, req)) // reports: `^func literal calls v.Action \(via the func stored in router.Route\[T\].Action by router.New\) → func literal at router.go:48 → time.Sleep, which waits with no way to cancel it.*\(SIO005\)$`
			})
		}
	}
	return mux
}

// BuildChained hands each route's action to a hook chain, as pocketbase's
// router does (routeHook.Trigger(event, v.Action)).
func (r *Router[T]) BuildChained() *http.ServeMux {
	mux := http.NewServeMux()
	for _, child := range r.children {
		switch v := child.(type) {
		case *Route[T]:
			h := &chain.Hook[T]{}
			mux.HandleFunc(v.Path, func(w http.ResponseWriter, req *http.Request) {
				_ = h.Trigger(r.factory(w, req), v.Action) // reports: `^func literal calls v.Action \(via the func stored in router.Route\[T\].Action by router.New\) → func literal at router.go:48 → time.Sleep, which waits with no way to cancel it.*\(SIO005\)$`
			})
		}
	}
	return mux
}
