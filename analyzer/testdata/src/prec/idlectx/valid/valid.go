// Package valid reduces an in-memory validator whose methods take a
// context (go-playground/validator's VarCtx) and a client that does I/O
// with the context it is given.
package valid

import (
	"context"
	"net/http"
	"strings"
)

type Validate struct{ tags map[string]func(string) bool }

// VarCtx checks a value against a tag in memory: the context only reaches
// custom validation funcs, none of which does I/O here.
func (v *Validate) VarCtx(ctx context.Context, field string, tag string) error {
	if f, ok := v.tags[tag]; ok && !f(field) {
		return context.Canceled
	}
	if strings.TrimSpace(field) == "" {
		return context.DeadlineExceeded
	}
	return nil
}

// Remote checks a value with a remote service, with the context given.
func Remote(ctx context.Context, field string) error { // want Remote:`io\(net/http.\(\*Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://checker/"+field, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Invoker reduces a generated gRPC client's connection: an interface that
// nothing in the program binds (grpc's own ClientConnInterface is not
// dispatched at all, so a real client's method is opaque).
type Invoker interface {
	Invoke(ctx context.Context, method string, in, out any) error
}

// Client is a generated client: its method passes the context to a call
// that cannot be followed, so it may do I/O with it.
type Client struct{ cc Invoker }

func (c *Client) Get(ctx context.Context, id string) error { // want Get:`opaque`
	return c.cc.Invoke(ctx, "/svc/Get", id, nil)
}

// Hooked passes the context to a func value.
func Hooked(ctx context.Context, hook func(context.Context) error) error { // want Hooked:`opaque`
	return hook(ctx)
}

// Outer reaches Get: opaque through its callee.
func Outer(ctx context.Context, c *Client) error { // want Outer:`opaque`
	return c.Get(ctx, "x")
}

// Scope keeps the context for the queries it runs later, as gorm's
// db.WithContext(ctx) does: the context leaves in the result.
type Scope struct{ ctx context.Context }

func WithScope(ctx context.Context) *Scope { return &Scope{ctx: ctx} }

// Weighted reduces x/sync/semaphore: Acquire waits for a slot, bounded
// only by the context it is given.
type Weighted struct{ slots chan struct{} }

func (w *Weighted) Acquire(ctx context.Context) error { // want Acquire:`opaque`
	select {
	case w.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Providers reduces apache/answer's GetAIProvider: it takes a context,
// never reads it, and reads its settings with a context.TODO() of its
// own. A dropped context given to it reaches nothing.
func Providers(ctx context.Context) ([]string, error) { // want Providers:`blocks\(SIO002: net/http.NewRequestWithContext\) \+ ctxunused`
	return providers(context.TODO())
}

// Named ignores its context too, with a blank name.
func Named(_ context.Context) error { // want Named:`blocks\(SIO002: net/http.NewRequestWithContext\) \+ ctxunused`
	_, err := providers(context.TODO())
	return err
}

func providers(ctx context.Context) ([]string, error) { // want providers:`io\(net/http.\(\*Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://settings/ai", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	return nil, resp.Body.Close()
}

// Forward passes the context it is given on: reported where it is given
// a dropped one.
func Forward(ctx context.Context) error { // want Forward:`io\(net/http.\(\*Client\).Do\)`
	_, err := providers(ctx)
	return err
}
