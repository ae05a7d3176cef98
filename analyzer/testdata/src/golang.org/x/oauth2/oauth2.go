// Package oauth2 is a stand-in for golang.org/x/oauth2 (v0.22.0
// oauth2.go): Config.TokenSource keeps the context in a tokenRefresher
// inside a reuseTokenSource, whose Token holds its mutex while the
// refresher's Token refreshes over HTTP.
package oauth2

import (
	"context"
	"net/http"
	"sync"
)

type Token struct{ AccessToken, RefreshToken string }

func (t *Token) Valid() bool { return t != nil && t.AccessToken != "" }

type TokenSource interface{ Token() (*Token, error) }

type Config struct{ TokenURL string }

func (c *Config) TokenSource(ctx context.Context, t *Token) TokenSource {
	tkr := &tokenRefresher{ctx: ctx, conf: c}
	if t != nil {
		tkr.refreshToken = t.RefreshToken
	}
	return &reuseTokenSource{t: t, new: tkr}
}

func (c *Config) Client(ctx context.Context, t *Token) *http.Client {
	return NewClient(ctx, c.TokenSource(ctx, t))
}

func NewClient(ctx context.Context, src TokenSource) *http.Client {
	return &http.Client{}
}

type tokenRefresher struct {
	ctx          context.Context
	conf         *Config
	refreshToken string
}

func (tf *tokenRefresher) Token() (*Token, error) {
	req, err := http.NewRequestWithContext(tf.ctx, http.MethodPost, tf.conf.TokenURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return &Token{AccessToken: "a", RefreshToken: tf.refreshToken}, nil
}

type reuseTokenSource struct {
	new TokenSource
	mu  sync.Mutex
	t   *Token
}

func (s *reuseTokenSource) Token() (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.t.Valid() {
		return s.t, nil
	}
	t, err := s.new.Token()
	if err != nil {
		return nil, err
	}
	s.t = t
	return t, nil
}

func ReuseTokenSource(t *Token, src TokenSource) TokenSource {
	return &reuseTokenSource{t: t, new: src}
}
