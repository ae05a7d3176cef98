package knowledge

import "sync"

// optIns are the keys of the optin rows (KindOptIn).
var optIns = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, r := range builtin() {
		if r.Kind == KindOptIn {
			m[r.Key] = true
		}
	}
	return m
})

// OptIn reports whether key is a dependency's function that runs only in
// a mode the program opts into elsewhere (an optin row): not followed.
func OptIn(key string) bool { return optIns()[key] }
