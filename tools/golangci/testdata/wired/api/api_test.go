package api

import "testing"

// The standalone checker loads test variants by default: go test's
// generated main for this package imports api but not the wiring, so it
// must not take Session's helpers for calls bound to nothing.
func TestHandlers(t *testing.T) { _ = &Handlers{} }
