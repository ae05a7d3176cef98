package deadlines

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

var (
	bareClient  = &http.Client{}
	timedClient = &http.Client{Timeout: 5 * time.Second}
)

type api struct{ hc *http.Client }

var upstream = api{hc: &http.Client{Transport: http.DefaultTransport}}

// Bare sends with a client without Timeout under the request's context,
// which has no deadline.
func Bare(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://up/x", nil)
	resp, err := bareClient.Do(req) // want `^net/http.\(\*Client\).Do sends with an http.Client that has no Timeout, under a context with no deadline: .*; set Timeout where the client is built, or send under context.WithTimeout\(r.Context\(\), d\) \(SIO008\)$`
	if err == nil {
		resp.Body.Close()
	}
}

// WithTimeout gives the request a deadline: clean.
func WithTimeout(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://up/x", nil)
	resp, err := bareClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

// Timed uses a client with a Timeout: clean.
func Timed(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://up/x", nil)
	resp, err := timedClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

// ViaField follows the client through a field and the request through a
// helper's parameter: reported at the handler's call.
func ViaField(w http.ResponseWriter, r *http.Request) {
	_ = upstream.get(r.Context()) // want `ViaField calls deadlines.api.get → net/http.\(\*Client\).Do, which sends with an http.Client that has no Timeout`
}

// ViaFieldBounded hands the helper a context with a deadline: clean.
func ViaFieldBounded(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), time.Second)
	defer cancel()
	_ = upstream.get(context.WithValue(ctx, key{}, 1))
}

type key struct{}

// ViaReassigned hands the helper the request's context; the helper gives
// its parameter a deadline before it sends: clean (supabase/auth's
// template fetch, 24 false findings before).
func ViaReassigned(w http.ResponseWriter, r *http.Request) {
	_ = upstream.getBounded(r.Context())
}

// ViaValued: the helper only adds a value to its parameter: reported.
func ViaValued(w http.ResponseWriter, r *http.Request) {
	_ = upstream.getValued(r.Context()) // want `ViaValued calls deadlines.api.getValued → net/http.\(\*Client\).Do, which sends with an http.Client that has no Timeout`
}

func (a api) getBounded(ctx context.Context) error { // want getBounded:`^io\(deadlines.api.get → net/http.\(\*Client\).Do\)$`
	var cancel context.CancelFunc
	ctx, cancel = context.WithTimeout(ctx, time.Second)
	defer cancel()
	return a.get(ctx)
}

func (a api) getValued(ctx context.Context) error { // want getValued:`SIO008`
	ctx = context.WithValue(ctx, key{}, 1)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://up/y", nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (a api) get(ctx context.Context) error { // want get:`^blocks\(SIO008: net/http.\(\*Client\).Do\) \+ io\(net/http.\(\*Client\).Do\)$`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://up/y", nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Unseen: a client handed in is built where this package cannot see.
func Unseen(c *http.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://up/x", nil)
		resp, err := c.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}
}

// Default: http.DefaultClient has no Timeout.
func Default(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://up/x", nil)
	resp, err := http.DefaultClient.Do(req) // want `net/http.\(\*Client\).Do sends with an http.Client that has no Timeout`
	if err == nil {
		resp.Body.Close()
	}
}

// Ignored carries a suppression with its reason.
func Ignored(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://up/x", nil)
	//syncio:ignore SIO008 -- the upstream is a sidecar on localhost that answers or resets
	resp, err := bareClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

// Off the request path: no finding.
func startup() { // want startup:`^blocks\(SIO001: net/http.NewRequest\) \+ blocks\(SIO008: net/http.\(\*Client\).Do\)$`
	req, _ := http.NewRequest(http.MethodGet, "http://up/x", nil)
	resp, err := bareClient.Do(req)
	if err == nil {
		resp.Body.Close()
	}
}

// EchoQuote sends under echo's request's context, which has no deadline.
func EchoQuote(c echo.Context) error {
	req, err := http.NewRequestWithContext(c.Request().Context(), http.MethodGet, "http://up/x", nil)
	if err != nil {
		return err
	}
	resp, err := bareClient.Do(req) // want `net/http.\(\*Client\).Do sends with an http.Client that has no Timeout`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
