// want package:`convs\(1\)`
// Package wire binds stale.Fetcher, above the package that calls it: the
// ignore at stale.Dispatched's call is applied by this package's join.
package wire

import (
	"net/http"

	"stale"
)

type fetcher struct{}

func (fetcher) Fetch() { _, _ = http.Get("http://example.com") } // want Fetch:`blocks\(SIO001: net/http.Get\)`

// Wire is no request path; it only binds the interface.
func Wire() { stale.Remote = fetcher{} }
