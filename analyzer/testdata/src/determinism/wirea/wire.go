// Package wirea converts *store.SQL to store.Store, as the other wiring
// packages do: the same binding, seen from four places.
package wirea

import "determinism/store"

func New() store.Store { return &store.SQL{URL: "http://a/"} }
