// Package api holds two handler-shaped functions that package branches
// uses: Manifest only called there, Shared registered there.
package api

import "net/http"

func Manifest(w http.ResponseWriter, r *http.Request) {}

func Shared(w http.ResponseWriter, r *http.Request) {}

// Both calls Shared on the spot; the registration in branches keeps it a
// handler.
func Both(w http.ResponseWriter, r *http.Request) { Shared(w, r) }
