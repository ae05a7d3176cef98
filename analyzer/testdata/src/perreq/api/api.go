// Package api uses store's filesystem made per request (its bucket's lock
// excludes no other request: silent) and kept for good (reported).
package api

import (
	"net/http"

	"perreq/store"
)

// PerRequest opens the filesystem for this request only, as pocketbase's
// backups handlers do: nobody else can wait on its bucket's lock.
func PerRequest(w http.ResponseWriter, r *http.Request) {
	fsys, err := store.NewFS("https://s3.example/b/")
	if err != nil {
		return
	}
	defer fsys.Close()
	_ = fsys.Exists(r.Context(), "k") // reports: `\(SIO008\)$`
	_ = fsys.List(r.Context())        // reports: `\(SIO008\)$`
}

var shared, _ = store.NewFS("https://s3.example/shared/")

// Global reaches the same lock on a filesystem every request shares.
func Global(w http.ResponseWriter, r *http.Request) {
	_ = shared.Exists(r.Context(), "k") // reports: `store.\(\*Bucket\).Attributes.*while b.mu \(read-locked at store.go:\d+\) is held.*\(SIO003\)$` `\(SIO008\)$`
}

type Handler struct{ fs *store.FS }

// ServeHTTP reaches it on a filesystem the long-lived handler keeps.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_ = h.fs.List(r.Context()) // reports: `store.\(\*Iterator\).Next.*while i.b.mu \(read-locked at store.go:\d+\) is held.*\(SIO003\)$` `\(SIO008\)$`
}

var sharedBucket = store.Open("https://s3.example/shared/")

// Iterate makes an iterator per request, but over a bucket it hands in:
// the lock is the shared bucket's.
func Iterate(w http.ResponseWriter, r *http.Request) {
	it := store.NewIterator(sharedBucket)
	_ = it.Next(r.Context()) // reports: `while i.b.mu \(read-locked at store.go:\d+\) is held.*\(SIO003\)$` `\(SIO008\)$`
}

// Handed makes the filesystem per request but passes it on: the callee
// may keep it, so its lock counts as shared.
func Handed(w http.ResponseWriter, r *http.Request) {
	fsys, _ := store.NewFS("https://s3.example/b/")
	_ = fsys.Exists(r.Context(), "k") // reports: `while b.mu \(read-locked at store.go:\d+\) is held.*\(SIO003\)$` `\(SIO008\)$`
	keep(fsys)
}

var kept []*store.FS

func keep(f *store.FS) { kept = append(kept, f) }

func Routes(mux *http.ServeMux) {
	mux.HandleFunc("/per", PerRequest)
	mux.HandleFunc("/global", Global)
	mux.HandleFunc("/iter", Iterate)
	mux.HandleFunc("/handed", Handed)
	mux.Handle("/h", &Handler{})
}
