package knowledge

import "sync"

// keysOf returns the keys of the rows of kind k.
func keysOf(k Kind) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, r := range builtin() {
			if r.Kind == k {
				m[r.Key] = true
			}
		}
		return m
	})
}

// optIns and inMemory are the keys of the optin and inmemory rows.
var optIns, inMemory = keysOf(KindOptIn), keysOf(KindInMemory)

// OptIn reports whether key is a dependency's function that runs only in
// a mode the program opts into elsewhere (an optin row): not followed.
func OptIn(key string) bool { return optIns()[key] }

// InMemoryCtor reports whether key is a constructor of an in-memory
// value (an inmemory row): its methods do no I/O.
func InMemoryCtor(key string) bool { return inMemory()[key] }
