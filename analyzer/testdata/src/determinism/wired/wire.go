// Package wired converts *store.SQL to store.Store, as the other wiring
// packages do: the same binding, seen from four places.
package wired

import "determinism/store"

func New() store.Store { return &store.SQL{URL: "http://d/"} }
