// want package:`convs\(2\)`

// Package req stands in for a service's request helper (Cloudreve's
// pkg/request): a client whose Request builds its request with the
// context a functional option set, and http.NewRequest when none is set.
package req

import (
	"context"
	"net/http"
	"time"
)

// Option changes one request.
type Option interface{ apply(*options) }

type options struct {
	ctx     context.Context
	timeout time.Duration
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// WithContext sets the request's context.
func WithContext(c context.Context) Option {
	return optionFunc(func(o *options) { o.ctx = c })
}

// WithTimeout sets the client's timeout.
func WithTimeout(t time.Duration) Option {
	return optionFunc(func(o *options) { o.timeout = t })
}

// Client sends requests.
type Client interface {
	Request(method, target string, opts ...Option) (*http.Request, error)
}

// HTTPClient is the Client.
type HTTPClient struct{ defaults options }

// NewClient returns the Client.
func NewClient() Client { return &HTTPClient{} }

// Request builds the request with the option's context, or none.
func (c *HTTPClient) Request(method, target string, opts ...Option) (*http.Request, error) { // want Request:`^blocks\(SIO001: net/http.NewRequest\) \+ dyn\(o.apply\) \+ given\(option:prec/nilctx/req.WithContext: dyn\(o.apply\)\)$`
	options := c.defaults
	for _, o := range opts {
		o.apply(&options)
	}
	var (
		r   *http.Request
		err error
	)
	if options.ctx != nil {
		r, err = http.NewRequestWithContext(options.ctx, method, target, nil)
	} else {
		r, err = http.NewRequest(method, target, nil)
	}
	return r, err
}

// Get builds the request with ctx, or none when ctx is nil.
func Get(ctx context.Context, target string) (*http.Request, error) { // want Get:`^blocks\(SIO001: net/http.NewRequest\) \+ given\(param:0: nothing\)$`
	if ctx == nil {
		return http.NewRequest(http.MethodGet, target, nil)
	}
	return http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
}

// Send builds its request without a context when ctx is nil, and
// always makes a call that blocks: a caller that passes a context still
// reaches that.
func Send(ctx context.Context, target string) error { // want Send:`^blocks\(SIO001: net/http.NewRequest\) \+ blocks\(SIO001: net/http.Get\) \+ given\(param:0: blocks\(SIO001: net/http.Get\)\)$`
	if ctx == nil {
		_, _ = http.NewRequest(http.MethodGet, target, nil)
	}
	_, err := http.Get(target)
	return err
}
