// Package wirec converts *store.SQL to store.Store, as the other wiring
// packages do: the same binding, seen from four places.
package wirec

import "determinism/store"

func New() store.Store { return &store.SQL{URL: "http://c/"} }
