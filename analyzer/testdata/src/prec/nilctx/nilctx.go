// want package:`pending\(5\)` package:`joined\(3\)` package:`holds\(1\)`

// Package nilctx: a branch taken only under a nil context (a context
// parameter, or a context field set by a functional option) is not taken
// at a call that passes a context; a call that passes none, or a literal
// nil, still reaches it (issue 35, "branch facts for the context").
package nilctx

import (
	"context"
	"net/http"

	"prec/nilctx/req"
)

var client = req.NewClient()

var concrete = &req.HTTPClient{}

// Through the interface (the join) and to the method (its fact), with the
// option that sets the context, among others.
func Opt(w http.ResponseWriter, r *http.Request) {
	_, _ = client.Request(http.MethodGet, "http://x", req.WithContext(r.Context()))
}

func OptConcrete(w http.ResponseWriter, r *http.Request) {
	_, _ = concrete.Request(http.MethodGet, "http://x", req.WithTimeout(0), req.WithContext(r.Context()))
}

// No context option, or one given nil: the helper builds its request
// without one.
func NoOpt(w http.ResponseWriter, r *http.Request) {
	_, _ = client.Request(http.MethodGet, "http://x", req.WithTimeout(0)) // want `NoOpt calls client.Request \(req.Client, bound to \*req.HTTPClient in req.NewClient\) → req.\(\*HTTPClient\).Request → net/http.NewRequest, which builds a request without the request context`
}

func NoOptConcrete(w http.ResponseWriter, r *http.Request) {
	_, _ = concrete.Request(http.MethodGet, "http://x") // want `NoOptConcrete calls req.\(\*HTTPClient\).Request → net/http.NewRequest, which builds a request without the request context`
}

func NilOpt(w http.ResponseWriter, r *http.Request) {
	_, _ = concrete.Request(http.MethodGet, "http://x", req.WithContext(nil)) // want `NilOpt calls req.\(\*HTTPClient\).Request → net/http.NewRequest`
}

// A context parameter tested for nil, in another package.
func Param(w http.ResponseWriter, r *http.Request) {
	_, _ = req.Get(r.Context(), "http://x")
}

func ParamNil(w http.ResponseWriter, r *http.Request) {
	_, _ = req.Get(nil, "http://x") // want `ParamNil calls req.Get → net/http.NewRequest, which builds a request without the request context`
}

// What runs whatever the context is stays.
func Mixed(w http.ResponseWriter, r *http.Request) {
	_ = req.Send(r.Context(), "http://x") // want `^Mixed calls req.Send → net/http.Get, which blocks without the request context; [^;]*\(SIO001\)$`
}

// In this package: the early-return form.
func get(ctx context.Context, target string) (*http.Request, error) { // want get:`^blocks\(SIO001: net/http.NewRequest\) \+ given\(param:0: nothing\)$`
	if ctx != nil {
		return http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	}
	return http.NewRequest(http.MethodGet, target, nil)
}

func Local(w http.ResponseWriter, r *http.Request) {
	_, _ = get(r.Context(), "http://x")
}

func LocalBackground(w http.ResponseWriter, r *http.Request) {
	_, _ = get(context.Background(), "http://x") // want `get is given context.Background\(\)`
}

func LocalNil(w http.ResponseWriter, r *http.Request) {
	_, _ = get(nil, "http://x") // want `LocalNil calls nilctx.get → net/http.NewRequest`
}

// A parameter the body assigns may be nil whatever the caller passed.
func reassigned(ctx context.Context, target string) (*http.Request, error) { // want reassigned:`^blocks\(SIO001: net/http.NewRequest\)$`
	ctx = pick(ctx)
	if ctx == nil {
		return http.NewRequest(http.MethodGet, target, nil)
	}
	return http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
}

func pick(ctx context.Context) context.Context {
	if ctx.Value("off") != nil {
		return nil
	}
	return ctx
}

func Reassigned(w http.ResponseWriter, r *http.Request) {
	_, _ = reassigned(r.Context(), "http://x") // want `Reassigned calls nilctx.reassigned → net/http.NewRequest`
}
