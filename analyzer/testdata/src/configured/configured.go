// want package:`convs\(1\)`

// Package configured is analysed with -blocking, -allow, -roots and -tests.
package configured

import "net/http"

type Store struct{}

// Load is declared blocking by -blocking.
func (s *Store) Load(k string) string { return k }

type Ctx struct{ Path string }

func Handler(w http.ResponseWriter, r *http.Request) {
	var s Store
	_ = s.Load("k")              // want `^configured.\(\*Store\).Load blocks without the request context; use s.LoadContext\(ctx, k\) \(SIO001\)$`
	_ = cachedGet("http://x")    // allowed: neither reported nor propagated
	_, _ = http.Head("http://x") // allowed by -allow net/http.Head
	_, _ = http.Get("http://x")  // want `net/http.Get blocks`
	_ = viaAllowed()
}

// cachedGet is in -allow: it is known to hit an in-memory cache first.
func cachedGet(u string) error {
	_, err := http.Get(u)
	return err
}

func viaAllowed() error { return cachedGet("y") }

// Job is a root by name (-roots configured.Job).
func Job(id string) {
	var s Store
	_ = s.Load(id) // want `configured.\(\*Store\).Load blocks`
}

// OnCtx is a root by its first parameter (-roots 'func(*configured.Ctx)').
func OnCtx(c *Ctx) {
	var s Store
	_ = s.Load(c.Path) // want `configured.\(\*Store\).Load blocks`
}

var onCtx = func(c *Ctx) {
	_, _ = http.Get(c.Path) // want `net/http.Get blocks`
}

// notRoot has neither name nor pattern: a helper, with a fact.
func notRoot(n int) string { // want notRoot:`^blocks\(SIO001: configured.\(\*Store\).Load\)$`
	var s Store
	return s.Load("z")
}

// Fetcher is an interface whose Fetch is declared blocking by -blocking.
type Fetcher interface{ Fetch(k string) string }

func ViaInterface(w http.ResponseWriter, r *http.Request) {
	var f Fetcher
	_ = f.Fetch("k") // want `^configured.Fetcher.Fetch blocks without the request context; use FetchContext \(SIO001\)$`
}
