// want package:`holds\(1\)`

// Package fs keeps the store it is given in a field, as Cloudreve's
// dbfs.DBFS keeps the navigator-state store: which store that is, is
// decided by its callers, above it.
package fs

import "prec/storedset/cache"

type FS struct{ state cache.Driver }

func NewFS(state cache.Driver) *FS { return &FS{state: state} }

func (f *FS) Lookup(key string) bool { // want Lookup:`^dyn\(f.state.Get\)$`
	_, ok := f.state.Get(key)
	return ok
}
