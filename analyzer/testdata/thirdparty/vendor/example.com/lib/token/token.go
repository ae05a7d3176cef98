// Package token reduces a token source: singleflight around signing, which
// only computes (precision class 5 of issue 10), and around a refresh that
// does HTTP, which stays SIO005.
package token

import (
	"crypto/hmac"
	"crypto/sha256"
	"net/http"

	"golang.org/x/sync/singleflight"
)

// Source signs and refreshes tokens.
type Source struct {
	Key []byte
	sf  singleflight.Group
}

func (s *Source) sign(claims string) []byte {
	m := hmac.New(sha256.New, s.Key)
	m.Write([]byte(claims))
	return m.Sum(nil)
}

// Signed returns the signed claims, computed once for concurrent callers.
func (s *Source) Signed(claims string) []byte {
	v, _, _ := s.sf.Do(claims, func() (any, error) { return s.sign(claims), nil })
	return v.([]byte)
}

// Refresh fetches a new token once for concurrent callers.
func (s *Source) Refresh(req *http.Request) error {
	_, err, _ := s.sf.Do("refresh", func() (any, error) {
		return http.DefaultClient.Do(req)
	})
	return err
}
