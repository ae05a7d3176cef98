// want package:`pending\(2\)` package:`convs\(3\)` package:`joined\(2\)`

// Package oauthlock covers x/oauth2's builders (noio rows in
// calls.txt): Config.TokenSource, Config.Client and NewClient take a
// context but only keep it in what they return, so a lock held across
// them is no lock across I/O; the refresh is the returned source's
// Token, and a lock of the program's held across that is.
package oauthlock

import (
	"context"
	"net/http"
	"sync"

	"golang.org/x/oauth2"
)

type Service struct {
	mu   sync.Mutex
	conf *oauth2.Config
	src  oauth2.TokenSource
	cli  *http.Client
}

// Build only builds a source and a client under the lock: silent.
func (s *Service) Build(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.src = s.conf.TokenSource(r.Context(), &oauth2.Token{RefreshToken: "x"})
	s.cli = s.conf.Client(r.Context(), nil)
	_ = oauth2.NewClient(r.Context(), s.src)
}

// Refresh refreshes the token under the lock: the refresh is I/O, and the
// chain names it, not the constructor.
func (s *Service) Refresh(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok, err := s.conf.TokenSource(r.Context(), &oauth2.Token{RefreshToken: "x"}).Token() // want `^\(\*Service\)\.Refresh calls s\.conf\.TokenSource\(.*\)\.Token .* → oauth2\.\(\*tokenRefresher\)\.Token → net/http\.\(\*Client\)\.Do, which does I/O while s\.mu \(locked at oauthlock\.go:37\) is held.*\(SIO003\)$`
	_, _ = tok, err
}

// fnSource is a TokenSource of the program's that runs a func, as alist's
// utils.TokenSource does.
type fnSource struct{ fn func() (*oauth2.Token, error) }

func (f *fnSource) Token() (*oauth2.Token, error) { return f.fn() } // want Token:`dyn\(f.fn\)`

type Driver struct{ ts oauth2.TokenSource }

func (d *Driver) Init(ctx context.Context, conf *oauth2.Config, refresh string) {
	d.ts = oauth2.ReuseTokenSource(nil, &fnSource{fn: func() (*oauth2.Token, error) {
		return conf.TokenSource(ctx, &oauth2.Token{RefreshToken: refresh}).Token()
	}})
}

// List needs a token: through x/oauth2's reuseTokenSource, whose mutex is
// held while a token source the program stored refreshes it (alist's
// drivers). Where the analysis follows the refresh, the finding names it;
// before the noio rows it named Config.TokenSource.
func (d *Driver) List(w http.ResponseWriter, r *http.Request) {
	tok, err := d.ts.Token() // want `^\(\*Driver\)\.List calls d\.ts\.Token .* → oauth2\.\(\*reuseTokenSource\)\.Token → .* → oauth2\.\(\*tokenRefresher\)\.Token → net/http\.\(\*Client\)\.Do, which does I/O while s\.mu \(locked at oauth2\.go:\d+\) is held.*\(SIO003\)$`
	_, _ = tok, err
}

// Detached keeps a background context in the source it builds, so the
// refresh will not end with the request: a noio row changes nothing for
// SIO002.
func (s *Service) Detached(w http.ResponseWriter, r *http.Request) {
	s.src = s.conf.TokenSource(context.Background(), nil) // want `^oauth2\.\(\*Config\)\.TokenSource is given context\.Background\(\) instead of the request context.*\(SIO002\)$`
}
