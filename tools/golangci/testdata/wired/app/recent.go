package app

import (
	"net/http"

	"example.com/wired/api"
	"example.com/wired/store"
)

// RecentRoutes serves the recent sessions from memory.
func RecentRoutes(mux *http.ServeMux) {
	mux.Handle("/recent", &api.Recent{Sessions: &store.Memory{}})
}

// Fallback binds the remote store to api.Sessions, where no handler
// reads it.
var Fallback api.Sessions = &store.Remote{URL: "http://cache.internal"}
