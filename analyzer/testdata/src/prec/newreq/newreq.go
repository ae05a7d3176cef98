// Package newreq covers http.NewRequest given its context later (precision
// class 1 of issue 10): req = req.WithContext(ctx) or req.Clone(ctx) with
// the request's context, or one of unknown origin, before the request is
// sent is silent; no such call, one given context.Background(), or one on
// another request is still SIO001.
package newreq

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
)

type client struct {
	hc  *http.Client
	ctx context.Context
}

// Helper is the shape seen in a dependency: build, set headers, attach
// the caller's context, send.
func Helper(ctx context.Context, c *http.Client, url string) (*http.Response, error) { // want Helper:`^io\(net/http.\(\*Client\).Do\)$`
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req = req.WithContext(ctx)
	return c.Do(req)
}

// Cloned gives the context through Clone, into another variable.
func Cloned(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	out := req.Clone(r.Context())
	_, _ = http.DefaultClient.Do(out) // want `\(SIO008\)$`
}

// Inline attaches it in the Do call.
func Inline(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	_, _ = http.DefaultClient.Do(req.WithContext(ctx)) // want `\(SIO008\)$`
}

// Unknown: a context of unknown origin (a field) is never second-guessed.
func (c *client) Unknown(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	_, _ = c.hc.Do(req.WithContext(c.ctx))
}

func Via(w http.ResponseWriter, r *http.Request) {
	_, _ = Helper(r.Context(), http.DefaultClient, "http://x")
}

// Never: no WithContext at all.
func Never(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil) // want `net/http.NewRequest builds a request without the request context`
	_, _ = http.DefaultClient.Do(req)                          // want `\(SIO008\)$`
}

// Background: WithContext(context.Background()) gives it no request
// context: the NewRequest stays, and the dropped context is SIO002.
func Background(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)          // want `NewRequest builds a request without the request context`
	_, _ = http.DefaultClient.Do(req.WithContext(context.Background())) // want `WithContext is given context.Background\(\)` `\(SIO008\)$`
}

// Other: the context goes to another request; Before: WithContext on the
// variable before this NewRequest was assigned to it.
func Other(w http.ResponseWriter, r *http.Request) {
	a, _ := http.NewRequest(http.MethodGet, "http://a", nil)
	b, _ := http.NewRequest(http.MethodGet, "http://b", nil) // want `NewRequest builds a request without the request context`
	_, _ = http.DefaultClient.Do(a.WithContext(r.Context())) // want `\(SIO008\)$`
	_, _ = http.DefaultClient.Do(b)                          // want `\(SIO008\)$`
}

func Before(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://a", nil)
	req = req.WithContext(r.Context())
	_, _ = http.DefaultClient.Do(req)                         // want `\(SIO008\)$`
	req, _ = http.NewRequest(http.MethodGet, "http://b", nil) // want `NewRequest builds a request without the request context`
	_, _ = http.DefaultClient.Do(req)                         // want `\(SIO008\)$`
}

// DroppedResult calls WithContext and throws the result away: req keeps
// no context, since WithContext returns a copy (issue 21).
func DroppedResult(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil) // want `NewRequest builds a request without the request context`
	req.WithContext(r.Context())
	_, _ = http.DefaultClient.Do(req)                           // want `\(SIO008\)$`
	req2, _ := http.NewRequest(http.MethodGet, "http://y", nil) // want `NewRequest builds a request without the request context`
	_ = req2.WithContext(r.Context())
	_, _ = http.DefaultClient.Do(req2) // want `\(SIO008\)$`
}

// Discarded: the request is not kept in a variable.
func Discarded(w http.ResponseWriter, r *http.Request) {
	_, _ = http.NewRequest(http.MethodGet, "http://x", nil) // want `NewRequest builds`
}

// never builds a request in a helper and sends it without a context.
func never(url string) { // want never:`blocks\(SIO001: net/http.NewRequest\)`
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	_, _ = http.DefaultClient.Do(req)
}

func ViaNever(w http.ResponseWriter, r *http.Request) {
	never("http://x") // want `ViaNever calls newreq.never → net/http.NewRequest` `\(SIO008\)$`
}

// doRequest attaches its ctx to the request it is given (go-oidc's and
// x/oauth2's shape): a caller that passes a live context has attached it.
func doRequest(ctx context.Context, req *http.Request) (*http.Response, error) { // want doRequest:`attaches\(req 1, ctx 0\)` doRequest:`^blocks\(SIO008: net/http\.\(\*Client\)\.Do\) \+ io\(net/http\.\(\*Client\)\.Do\)$`
	return http.DefaultClient.Do(req.WithContext(ctx))
}

// OneCallDown gives the request's context one call down.
func OneCallDown(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil)
	_, _ = doRequest(r.Context(), req) // want `\(SIO008\)$`
}

// OneCallDownDropped hands it Background: the build is still SIO001 and
// the call SIO002.
func OneCallDownDropped(w http.ResponseWriter, r *http.Request) {
	req, _ := http.NewRequest(http.MethodGet, "http://x", nil) // want `NewRequest builds a request without the request context`
	_, _ = doRequest(context.Background(), req)                // want `doRequest is given context.Background\(\)`
}

// newTokenRequest builds a request and returns it for its caller to send
// (x/oauth2's shape: RetrieveToken sends it through doTokenRoundTrip).
func newTokenRequest(url string, v map[string]string) (*http.Request, error) { // want newTokenRequest:`builds-request` newTokenRequest:`blocks\(SIO001: net/http.NewRequest\)`
	body := encode(v)
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return req, nil
}

func encode(v map[string]string) string {
	var b strings.Builder
	for k, x := range v {
		b.WriteString(k + "=" + x + "&")
	}
	return b.String()
}

// BuiltThenAttached: the builder's request is given the request's
// context one call down before it is sent: no SIO001.
func BuiltThenAttached(w http.ResponseWriter, r *http.Request) {
	req, err := newTokenRequest("http://x", nil)
	if err != nil {
		return
	}
	_, _ = doRequest(r.Context(), req) // want `\(SIO008\)$`
}

// BuiltAndSent sends the builder's request as it is: SIO001 through it.
func BuiltAndSent(w http.ResponseWriter, r *http.Request) {
	req, _ := newTokenRequest("http://x", nil) // want `BuiltAndSent calls newreq.newTokenRequest → net/http.NewRequest`
	_, _ = http.DefaultClient.Do(req)
}

// buildAndLog is no builder: it also writes a file.
func buildAndLog(url string) (*http.Request, error) { // want buildAndLog:`blocks\(SIO001: net/http.NewRequest\)`
	req, err := http.NewRequest(http.MethodGet, url, nil)
	_ = os.WriteFile("/tmp/last-url", []byte(url), 0o600)
	return req, err
}

// buildAndPrint is no builder either: fmt.Fprintln writes (Sprintf and
// Errorf would not).
func buildAndPrint(url string) (*http.Request, error) { // want buildAndPrint:`blocks\(SIO001: net/http.NewRequest\)`
	req, err := http.NewRequest(http.MethodGet, fmt.Sprintf("%s?v=1", url), nil)
	fmt.Fprintln(os.Stderr, url)
	return req, err
}

// PrintedThenAttached: the printing builder's NewRequest stays reported.
func PrintedThenAttached(w http.ResponseWriter, r *http.Request) {
	req, _ := buildAndPrint("http://x") // want `PrintedThenAttached calls newreq.buildAndPrint → net/http.NewRequest`
	_, _ = doRequest(r.Context(), req)  // want `\(SIO008\)$`
}

// NotABuilder: attaching a context to its request leaves its other work
// reported (the NewRequest inside it included: the function is judged
// whole).
func NotABuilder(w http.ResponseWriter, r *http.Request) {
	req, _ := buildAndLog("http://x")  // want `NotABuilder calls newreq.buildAndLog → net/http.NewRequest`
	_, _ = doRequest(r.Context(), req) // want `\(SIO008\)$`
}
