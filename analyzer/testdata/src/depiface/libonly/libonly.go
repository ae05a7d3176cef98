// Package libonly uses the session library with the library's own store,
// bound inside the library: a dependency's call to its own implementation
// is its plumbing, not followed, so this is silent.
package libonly

import (
	"net/http"

	"example.com/sessions"
)

var manager = sessions.NewSQLManager(nil)

func Profile(w http.ResponseWriter, r *http.Request) {
	_, _ = manager.Get(r, "sid")
}
